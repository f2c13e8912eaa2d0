export { FileTree } from './FileTree'
export { createInFolder, copyPath, revealInOs } from './file-actions'
