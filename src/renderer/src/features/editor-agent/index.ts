export { EditorAgent, addSelectionToChat, editorAgentOverlay } from './EditorAgent'
import './editor-agent.css'
