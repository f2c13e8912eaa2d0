import type { DomainHandlers } from '../router'

export const fsHandlers: DomainHandlers<'fs'> = {
  list: ({ projectId, path }, { services }) => services.projects.get(projectId).list(path),
  read: ({ projectId, path }, { services }) => services.projects.get(projectId).read(path),
}
