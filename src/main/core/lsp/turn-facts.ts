import type { LateFacts, ToolPostStep } from '../agent/project-tools'
import { diagnosticsAfterTool, lateDiagnostics, settleDiagnostics } from './after-edit'
import type { LspService } from './service'

/** Language server diagnostics after edits (and a warm server after reads), appended to the call's result. */
export function lspPostStep(lsp: LspService): ToolPostStep {
  return ({ project, config, tool, metadata, failed, signal, sessionId }) =>
    config.lsp === false
      ? Promise.resolve(undefined)
      : diagnosticsAfterTool(lsp.for(project, config), { tool, sessionId, metadata, failed, signal, waitMs: lsp.waitMs, quietMs: lsp.quietMs })
}

/**
 * What a server that was starting or slow reports later, with the next request or before the turn ends.
 * A project whose servers never started owes nothing: its turns do not load the language-server code.
 */
export function lspLateFacts(lsp: LspService): LateFacts {
  return {
    take: (project, config, sessionId, options) => {
      const servers = config.lsp === false ? undefined : lsp.running(project)
      return servers ? lateDiagnostics(servers, sessionId, options) : []
    },
    settle: (project, config, sessionId, signal) => {
      const servers = config.lsp === false ? undefined : lsp.running(project)
      return servers ? settleDiagnostics(servers, sessionId, { maxMs: lsp.settleMs, quietMs: lsp.quietMs, signal }) : Promise.resolve([])
    },
  }
}
