import { ErrorNames, HotaruError } from '@shared/errors'
import { resolveEntry } from '../../core/project/fs-ops'
import type { DomainHandlers } from '../router'

export const fsHandlers: DomainHandlers<'fs'> = {
  list: ({ projectId, path }, { services }) => services.projects.get(projectId).list(path),
  read: ({ projectId, path }, { services }) => services.projects.get(projectId).read(path),
  write: ({ projectId, path, content, expectedMtimeMs }, { services }) =>
    services.projects.get(projectId).write(path, content, expectedMtimeMs),
  create: ({ projectId, path, kind }, { services }) => services.projects.get(projectId).create(path, kind),
  rename: ({ projectId, from, to }, { services }) => services.projects.get(projectId).rename(from, to),
  delete: ({ projectId, path }, { services }) => ({ deleted: services.projects.get(projectId).delete(path) }),
  gitStatus: ({ projectId }, { services }) => {
    const project = services.projects.get(projectId)
    return project.gitStatus(() => !services.trust.isTrusted(project.trustRoot))
  },
  reveal: async ({ projectId, path }, { services }) => {
    const project = services.projects.get(projectId)
    if (!services.revealer) {
      throw new HotaruError(ErrorNames.Unsupported, { message: 'revealing files is only available in the desktop app' })
    }
    // The entry itself (a link is shown as the link), checked against the boundary.
    await services.revealer.reveal(path === '' ? project.root : resolveEntry(project.root, path))
    return {}
  },
}
