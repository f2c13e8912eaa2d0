export { EditorArea } from './EditorArea'
export { DiffView, type DiffViewProps } from './DiffView'
export { openFile, closeFile, saveActive, saveAll, unsavedFiles } from './actions'
export { documentsFor } from './documents'
