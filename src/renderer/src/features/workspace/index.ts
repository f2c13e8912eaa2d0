export { Workspace, type WorkspaceProps } from './Workspace'
export { closeProjectTab } from './commands'
