import type { DomainHandlers } from '../router'

export const sessionHandlers: DomainHandlers<'session'> = {
  create: async ({ projectId, agent, model }, { services }) => {
    const project = services.projects.get(projectId)
    const { defaults } = await services.configs.of(project).load()
    return services.sessions.create({ projectId: project.id, agent: agent ?? defaults.agent, model: model ?? defaults.model })
  },
  list: ({ projectId, search, limit, includeChildren }, { services }) =>
    services.sessions.list(projectId, { roots: !includeChildren, search, limit }),
  get: ({ sessionId }, { services }) => services.sessions.get(sessionId),
  messages: ({ sessionId }, { services }) => services.sessions.messages(sessionId),
  rename: ({ sessionId, title }, { services }) => services.sessions.update(sessionId, { title }),
  delete: ({ sessionId }, { services }) => {
    services.agents.abort(sessionId)
    return { deleted: services.sessions.delete(sessionId) }
  },
  status: ({ sessionId }, { services }) => {
    services.sessions.get(sessionId)
    return { status: services.agents.status(sessionId) }
  },
}
