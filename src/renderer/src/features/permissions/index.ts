export { PermissionDock } from './PermissionDock'
export { QuestionPrompt } from './QuestionPrompt'
import './permissions.css'
