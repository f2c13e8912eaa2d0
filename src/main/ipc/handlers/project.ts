import { completeFolder, expandTilde } from '../../core/project/path-complete'
import { ErrorNames, HotaruError } from '@shared/errors'
import type { DomainHandlers } from '../router'

export const projectHandlers: DomainHandlers<'project'> = {
  open: ({ path }, { services, connection }) => {
    // A typed `~/…` means the home folder, as in a shell.
    const instance = services.projects.openFolder(expandTilde(path.trim()))
    connection.show(instance.id)
    return instance.info
  },
  locate: async ({ projectId, path }, { services, connection }) => {
    const instance = await services.projects.locate(projectId, expandTilde(path.trim()))
    connection.show(instance.id)
    connection.hide(projectId)
    return instance.info
  },
  completePath: ({ path }) => ({ folders: completeFolder(path) }),
  close: async ({ projectId }, { services, connection }) => {
    const closed = await services.projects.close(projectId)
    connection.hide(projectId)
    return { closed }
  },
  list: (_input, { services, connection }) => {
    const open = services.projects.list()
    for (const project of open) connection.show(project.id)
    return open
  },
  recent: ({ limit }, { services }) => services.projects.recent(limit),
  forget: ({ projectId }, { services }) => ({ forgotten: services.projects.forget(projectId) }),
  notices: ({ projectId }, { services }) => {
    services.projects.get(projectId)
    return services.notices.list(projectId)
  },
  dismissNotices: ({ projectId, ids }, { services }) => ({ dismissed: services.notices.dismiss(projectId, ids) }),
  pickFolder: async (_input, { services }) => {
    if (!services.folderPicker) {
      throw new HotaruError(ErrorNames.Unsupported, {
        message: 'this client has no folder dialog; enter the folder path instead',
      })
    }
    return { path: await services.folderPicker.pickFolder() }
  },
}
