export { QuickOpen } from './QuickOpen'
export { SearchPanel } from './SearchPanel'
import './search.css'
