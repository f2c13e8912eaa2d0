import type { Services } from '../core/services'
import { appHandlers } from './handlers/app'
import { fsHandlers } from './handlers/fs'
import { projectHandlers } from './handlers/project'
import { createRouter, type Handlers, type Router } from './router'

export const handlers: Handlers = {
  app: appHandlers,
  project: projectHandlers,
  fs: fsHandlers,
}

export function createAppRouter(services: Services): Router {
  return createRouter(services, handlers)
}

export { Connection } from './connection'
export type { Router } from './router'
