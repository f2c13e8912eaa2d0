import { ErrorNames, HotaruError } from '@shared/errors'
import type { DomainHandlers } from '../router'

const missing = (id: string) => new HotaruError(ErrorNames.NotFound, { message: `no background process "${id}"` })

export const processHandlers: DomainHandlers<'process'> = {
  list: ({ projectId }, { services }) => services.tools.for(services.projects.get(projectId)).background.list(),
  output: ({ projectId, id }, { services }) => {
    const text = services.tools.for(services.projects.get(projectId)).background.tail(id)
    if (text === undefined) throw missing(id)
    return { text }
  },
  kill: async ({ projectId, id }, { services }) => {
    const killed = await services.tools.for(services.projects.get(projectId)).background.kill(id)
    if (!killed) throw missing(id)
    return killed
  },
}
