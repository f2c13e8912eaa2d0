export { ChatPanel } from './ChatPanel'
export { installChatCommands } from './commands'
import './chat.css'
