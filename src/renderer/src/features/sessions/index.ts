export { SessionList } from './SessionList'
export { confirmDeleteSession, renameSessionDialog } from './actions'
import './sessions.css'
