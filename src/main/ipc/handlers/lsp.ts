import { ErrorNames, HotaruError } from '@shared/errors'
import type { DomainHandlers } from '../router'

export const lspHandlers: DomainHandlers<'lsp'> = {
  status: async ({ projectId }, { services }) => (await services.lsp.load(services.projects.get(projectId))).statuses(),
  diagnostics: async ({ projectId }, { services }) => (await services.lsp.load(services.projects.get(projectId))).allDiagnostics(),
  open: async ({ projectId, path }, { services }) => {
    const project = services.projects.get(projectId)
    const lsp = await services.lsp.load(project)
    const abs = lsp.absPath(path)
    if (lsp.relPath(abs) === abs) throw new HotaruError(ErrorNames.OutsideWorkspace, { message: `${path} is outside the project` })
    const handle = lsp.handleFor(abs)
    if (!handle) return {}
    // The server starts in the background; its report arrives as an `lsp:diagnostics` event.
    await lsp.open([abs])
    return { server: handle.id }
  },
  restart: async ({ projectId, server }, { services }) => {
    const lsp = await services.lsp.load(services.projects.get(projectId))
    const handle = lsp.handleById(server)
    if (!handle) throw new HotaruError(ErrorNames.NotFound, { message: `no language server "${server}" in this project` })
    await handle.restart()
    return handle.status()
  },
  install: ({ projectId, server, allow }, { services }) => services.lsp.answerInstall(services.projects.get(projectId), server, allow),
}
