import type { DomainHandlers } from '../router'

export const worktreeHandlers: DomainHandlers<'worktree'> = {
  list: async ({ projectId }, { services, connection }) => {
    const worktrees = await services.worktrees.list(services.projects.get(projectId))
    // A client showing the project follows its open worktrees' sessions too.
    for (const worktree of worktrees) if (worktree.open) connection.show(worktree.projectId)
    return worktrees
  },
  create: async ({ projectId, name, base }, { services, connection }) => {
    const { worktree } = await services.worktrees.create(services.projects.get(projectId), { name, base })
    connection.show(worktree.projectId)
    return worktree
  },
  open: async ({ projectId, name }, { services, connection }) => {
    const { worktree } = await services.worktrees.open(services.projects.get(projectId), name)
    connection.show(worktree.projectId)
    return worktree
  },
  diff: ({ projectId, name }, { services }) => services.worktrees.diff(services.projects.get(projectId), name),
  file: ({ projectId, name, path, side, from }, { services }) => services.worktrees.fileVersions(services.projects.get(projectId), name, path, side, from),
  previewMerge: ({ projectId, name }, { services }) => services.worktrees.previewMerge(services.projects.get(projectId), name),
  mergeFile: ({ projectId, name, path }, { services }) => services.worktrees.mergeFile(services.projects.get(projectId), name, path),
  merge: ({ projectId, name, skipConflicts, overwriteConflicts, resolutions }, { services }) =>
    services.worktrees.merge(services.projects.get(projectId), name, { skipConflicts, overwriteConflicts, ...(resolutions ? { resolutions } : {}) }),
  remove: ({ projectId, name, force, keepBranch }, { services }) =>
    services.worktrees.remove(services.projects.get(projectId), name, { force, keepBranch }),
}
