import type { Config } from '../config'
import type { TurnFeature } from '../agent/turn-features'
import type { TurnInfo } from '../agent/turn-hooks'
import type { ProjectInstance } from '../project/instance'
import { diagnosticsAfterTool, lateDiagnostics, settleDiagnostics } from './after-edit'
import type { LspService } from './service'

/**
 * Language-server diagnostics in a turn: after an edit, the report of a warm server is appended to the call's
 * result (a read warms the file's server); what a server that was starting or slow reports later reaches the
 * model with its next request, or at the start of the next turn; and before a turn ends it waits (bounded)
 * for what its edits are still owed, so the turn goes on when they caused errors the model has not heard of.
 * A project whose servers never started owes nothing: its turns do not load the language-server code.
 */
export function lspFeature(lsp: LspService): TurnFeature {
  /** The project and config of a turn whose project has language servers on. */
  const scope = (turn: TurnInfo): { project: ProjectInstance; config: Config } | undefined => {
    const { project, config } = turn.env
    return project && config && config.lsp !== false ? { project, config } : undefined
  }
  return {
    // Diagnostics that arrived after the last turn ended come first; that turn's edits are then forgotten.
    'turn.willStart': (turn) => {
      const on = scope(turn)
      const servers = runningOf(lsp, on)
      return {
        context: servers ? lateDiagnostics(servers, turn.session.id, { endTurn: true }) : [],
        // `hotaru run` starts the project's servers while the first request is out, not before it.
        stored: () => {
          if (on) lsp.turnStarted(on.project, on.config)
        },
      }
    },
    'tool.didRun': async ({ turn, call, ctx, outcome }) => {
      const on = scope(turn)
      if (!on) return undefined
      const waits = { waitMs: lsp.waitMs, quietMs: lsp.quietMs }
      const input = { tool: call.name, sessionId: turn.session.id, metadata: outcome.metadata ?? {}, failed: outcome.isError, signal: ctx.signal, ...waits }
      const report = await diagnosticsAfterTool(lsp.for(on.project, on.config), input)
      return report ? { append: report.output, metadata: report.metadata } : undefined
    },
    'step.didEnd': ({ turn, next }) => {
      const servers = runningOf(lsp, scope(turn))
      if (!servers || next === 'end') return undefined
      // Diagnostics that came in while the model wrote follow the step's tool results.
      if (next === 'step') return lateDiagnostics(servers, turn.session.id)
      return settleDiagnostics(servers, turn.session.id, { maxMs: lsp.settleMs, quietMs: lsp.quietMs, signal: turn.signal })
    },
  }
}

function runningOf(lsp: LspService, on: { project: ProjectInstance } | undefined): ReturnType<LspService['running']> {
  return on ? lsp.running(on.project) : undefined
}
