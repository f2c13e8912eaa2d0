import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs'
import { join, resolve, sep } from 'node:path'
import { ErrorNames, HotaruError } from '@shared/errors'
import type { DomainHandlers } from '../router'

export const sessionHandlers: DomainHandlers<'session'> = {
  create: async ({ projectId, agent, model, effort }, { services }) => {
    const project = services.projects.get(projectId)
    const { defaults } = await services.configs.of(project).load()
    return services.sessions.create({ projectId: project.id, agent: agent ?? defaults.agent, model: model ?? defaults.model, effort })
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
  running: ({ projectId }, { services }) => {
    const project = services.projects.get(projectId)
    return services.agents
      .statusesOf((sessionId) => services.sessions.find(sessionId)?.projectId === project.id)
      .map(([sessionId, status]) => ({ sessionId, status }))
  },
  image: ({ sessionId, imageId }, { services }) => {
    const image = services.sessions.image(imageId, sessionId)
    if (!image) throw new HotaruError(ErrorNames.NotFound, { message: `no image ${imageId} in this session`, imageId })
    return image
  },
  toolOutput: ({ sessionId, partId }, { services }) => {
    const part = services.sessions.messages(sessionId).flatMap((m) => m.parts).find((p) => p.id === partId)
    if (!part || part.type !== 'tool') throw new HotaruError(ErrorNames.NotFound, { message: `no tool call ${partId} in this session`, partId })
    const saved = (part.state.metadata as { outputPath?: unknown } | undefined)?.outputPath
    const root = join(services.info().dataDir, 'tool-output')
    // Only files the app saved itself, under its own folder, are read back.
    if (typeof saved !== 'string' || !resolve(saved).startsWith(`${resolve(root)}${sep}`)) {
      return { text: part.state.status === 'completed' || part.state.status === 'error' ? (part.state.output ?? '') : '', truncated: false }
    }
    const size = statSync(saved).size
    if (size <= MAX_FULL_OUTPUT) return { text: readFileSync(saved, 'utf8'), truncated: false }
    const buffer = Buffer.alloc(MAX_FULL_OUTPUT)
    const fd = openSync(saved, 'r')
    try {
      readSync(fd, buffer, 0, MAX_FULL_OUTPUT, size - MAX_FULL_OUTPUT)
    } finally {
      closeSync(fd)
    }
    return { text: buffer.toString('utf8'), truncated: true }
  },
}

/** "Show full output" sends at most this much (the end of it: where results usually are). */
const MAX_FULL_OUTPUT = 20 * 1024 * 1024
