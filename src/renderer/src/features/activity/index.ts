export { ActivityButton, ActivityView } from './ActivityView'
export { AskNotices } from './AskNotices'
export { installActivityCommands } from './commands'
import './activity.css'
