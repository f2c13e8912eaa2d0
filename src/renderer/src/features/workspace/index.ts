export { Workspace, type WorkspaceProps } from './Workspace'
export { closeProjectTab, installWorkspaceCommands } from './commands'
