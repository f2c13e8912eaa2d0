export { PreviewPanel, usePreviewPanel } from './PreviewPanel'
export { PreviewButton } from './PreviewButton'
export { installPreviewCommands } from './commands'
import './preview.css'
