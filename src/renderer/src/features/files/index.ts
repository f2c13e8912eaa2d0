export { FileTree } from './FileTree'
export { FileViewer } from './FileViewer'
