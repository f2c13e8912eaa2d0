import { terminalsOf } from '../../core/pty/terminal-host'
import type { HandlerContext, DomainHandlers } from '../router'

const host = (projectId: string, { services }: HandlerContext) => terminalsOf(services.projects.get(projectId), services.bus)

export const ptyHandlers: DomainHandlers<'pty'> = {
  create: ({ projectId, cols, rows, cwd }, ctx) => host(projectId, ctx).create({ cols, rows, cwd }),
  write: ({ projectId, id, data }, ctx) => {
    host(projectId, ctx).get(id).write(data)
    return {}
  },
  resize: ({ projectId, id, cols, rows }, ctx) => {
    host(projectId, ctx).get(id).resize(cols, rows)
    return {}
  },
  kill: async ({ projectId, id }, ctx) => ({ killed: await host(projectId, ctx).kill(id) }),
  list: ({ projectId }, ctx) => host(projectId, ctx).list(),
  ack: ({ projectId, id, chars }, ctx) => {
    host(projectId, ctx).get(id).ack(chars)
    return {}
  },
  replay: ({ projectId, id }, ctx) => host(projectId, ctx).get(id).replay(),
}
