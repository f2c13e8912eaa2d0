import type { DomainHandlers } from '../router'

export const checkpointHandlers: DomainHandlers<'checkpoint'> = {
  list: ({ projectId, sessionId }, { services }) => {
    services.projects.get(projectId)
    return services.checkpoints.list(projectId, sessionId)
  },
  position: ({ projectId }, { services }) => {
    services.projects.get(projectId)
    return { snapshotId: services.checkpoints.position(projectId) }
  },
  diff: ({ fromId, toId }, { services }) => services.checkpoints.diff(fromId, toId),
  file: ({ fromId, toId, path }, { services }) => services.checkpoints.fileVersions(path, fromId, toId),
  preview: ({ checkpointId, ...request }, { services }) => services.checkpoints.preview(checkpointId, request),
  restore: ({ checkpointId, ...request }, { services }) => services.checkpoints.restore(checkpointId, request),
  fork: async ({ checkpointId, code }, { services }) => (await services.checkpoints.fork(checkpointId, { code })).session,
  usage: async ({ projectId }, { services }) => {
    const { totalBytes, quotaBytes, overQuota } = await services.checkpoints.usage(projectId)
    return { totalBytes, quotaBytes, overQuota }
  },
}
