import type { Services } from '../core/services'
import { agentHandlers } from './handlers/agent'
import { appHandlers } from './handlers/app'
import { checkpointHandlers } from './handlers/checkpoint'
import { fsHandlers } from './handlers/fs'
import { layoutHandlers } from './handlers/layout'
import { lspHandlers } from './handlers/lsp'
import { mcpHandlers } from './handlers/mcp'
import { ptyHandlers } from './handlers/pty'
import { permissionHandlers } from './handlers/permission'
import { previewHandlers } from './handlers/preview'
import { processHandlers } from './handlers/process'
import { projectHandlers } from './handlers/project'
import { questionHandlers } from './handlers/question'
import { sandboxHandlers } from './handlers/sandbox'
import { reviewHandlers } from './handlers/review'
import { searchHandlers } from './handlers/search'
import { sessionHandlers } from './handlers/session'
import { settingsHandlers } from './handlers/settings'
import { trustHandlers } from './handlers/trust'
import { worktreeHandlers } from './handlers/worktree'
import { createRouter, type Handlers, type Router } from './router'

export const handlers: Handlers = {
  app: appHandlers,
  project: projectHandlers,
  fs: fsHandlers,
  pty: ptyHandlers,
  layout: layoutHandlers,
  session: sessionHandlers,
  agent: agentHandlers,
  permission: permissionHandlers,
  question: questionHandlers,
  mcp: mcpHandlers,
  process: processHandlers,
  settings: settingsHandlers,
  checkpoint: checkpointHandlers,
  sandbox: sandboxHandlers,
  lsp: lspHandlers,
  trust: trustHandlers,
  review: reviewHandlers,
  search: searchHandlers,
  worktree: worktreeHandlers,
  preview: previewHandlers,
}

export function createAppRouter(services: Services): Router {
  return createRouter(services, handlers)
}

export { Connection } from './connection'
export type { PreviewSurface } from './preview-surface'
export type { Router } from './router'
