import type { LspService } from './lsp/service'
import { loadBashParser } from './permission/shell/bash-parser'
import type { ProviderRegistry } from './provider'
import { builtinTools, toolDefinition } from './tools'
import { log } from './util/log'
import { nextTask } from './util/next-task'

export interface WarmUpDeps {
  providers: ProviderRegistry
  lsp: LspService
  /** The models new messages of the open projects go to (their configs' defaults). */
  models(): Promise<string[]>
}

/**
 * What a host with a UI (the desktop app, `serve`) loads right after it starts, in the background:
 * what the first turn would otherwise load and compile in its middle, each a task of 15–50 ms on
 * the event loop that streams the turn (measured on the first turn of `bench:serve`): the provider
 * SDK, the language server client, the bash grammar (compiled by its first parse) and the tools'
 * JSON schemas. Each step is a task of its own, so the loop serves the window in between. One-shot
 * CLI commands load lazily instead: there nothing else waits, and a command that makes no request
 * loads none of it.
 *
 * A step that fails is logged and left to the turn that needs it, which reports its own error.
 */
export async function warmUp(deps: WarmUpDeps): Promise<void> {
  const steps: Array<[what: string, run: () => unknown]> = [
    [
      'provider SDK',
      async () => {
        for (const model of new Set(await deps.models())) await deps.providers.warm(model)
      },
    ],
    ['language server client', () => deps.lsp.warm()],
    ['bash grammar', () => loadBashParser()],
    [
      'tool schemas',
      () => {
        for (const tool of builtinTools()) toolDefinition(tool)
      },
    ],
  ]
  const started = performance.now()
  for (const [what, run] of steps) {
    await nextTask()
    try {
      await run()
    } catch (error) {
      log.warn(`[warm-up] ${what} not loaded ahead: ${(error as Error).message}`)
    }
  }
  log.info(`[warm-up] done in ${Math.round(performance.now() - started)} ms`)
}
