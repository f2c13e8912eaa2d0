import { loadConfig } from '../../core/config'
import type { DomainHandlers } from '../router'

export const sessionHandlers: DomainHandlers<'session'> = {
  create: async ({ projectId, agent, model }, { services }) => {
    const project = services.projects.get(projectId)
    const { config } = await loadConfig({ projectDir: project.root })
    return services.sessions.create({
      projectId: project.id,
      agent: agent ?? config.defaultAgent ?? 'build',
      model: model ?? config.model ?? services.defaultModel(),
    })
  },
  list: ({ projectId, search, limit, includeChildren }, { services }) =>
    services.sessions.list(projectId, { roots: !includeChildren, search, limit }),
  get: ({ sessionId }, { services }) => services.sessions.get(sessionId),
  messages: ({ sessionId }, { services }) => services.sessions.messages(sessionId),
  rename: ({ sessionId, title }, { services }) => services.sessions.update(sessionId, { title }),
  delete: async ({ sessionId }, { services }) => {
    // Its turns (running and queued) end first, so none writes into a session that is gone.
    await services.agents.cancelSession(sessionId, 'the session was deleted')
    return { deleted: services.sessions.delete(sessionId) }
  },
  status: ({ sessionId }, { services }) => {
    services.sessions.get(sessionId)
    return { status: services.agents.status(sessionId) }
  },
}
