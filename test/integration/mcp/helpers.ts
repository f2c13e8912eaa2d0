import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach } from 'vitest'
import type { McpLocalConfig } from '../../../src/main/core/config/schema'
import { McpManager, type McpManagerOptions, type McpServerStatus, type SecretStore } from '../../../src/main/core/mcp'

export { isRunning, liveDescendants } from './helpers-proc'

const ROOT = resolve(import.meta.dirname, '../../..')
export const STDIO_FIXTURE = resolve(ROOT, 'test/fixtures/mcp-server/stdio.ts')
export const HTTP_FIXTURE = resolve(ROOT, 'test/fixtures/mcp-server/http.ts')
/** Absolute, so servers started in a temp project folder still find the TypeScript loader. */
export const TSX_LOADER = pathToFileURL(resolve(ROOT, 'node_modules/tsx/dist/loader.mjs')).href

export type FixtureMode = 'ok' | 'crash' | 'hang' | 'malformed' | 'crash-after-call'

/** Config for the stdio fixture server. */
export function fixtureServer(mode: FixtureMode = 'ok', extra: Partial<McpLocalConfig> = {}, flags: string[] = []): McpLocalConfig {
  return { type: 'local', command: [process.execPath, '--import', TSX_LOADER, STDIO_FIXTURE, '--mode', mode, ...flags], ...extra }
}

const managers: McpManager[] = []

/** A manager with quick test defaults; disposed after the test. */
export function createManager(options: Partial<McpManagerOptions> & Pick<McpManagerOptions, 'servers' | 'projectRoot'>): McpManager {
  const manager = new McpManager({
    projectMcpJson: false,
    timeoutMs: 15_000,
    restartDelaysMs: [50, 100, 200],
    killGraceMs: 500,
    ...options,
  })
  managers.push(manager)
  return manager
}

afterEach(async () => {
  for (const manager of managers.splice(0)) await manager.dispose()
})

/** Records every status change, to check the order of states. */
export function statusLog(): { log: McpServerStatus[]; onStatus: (status: McpServerStatus) => void; states: (name: string) => string[] } {
  const log: McpServerStatus[] = []
  return {
    log,
    onStatus: (status) => log.push(status),
    states: (name) => log.filter((s) => s.name === name).map((s) => s.state),
  }
}

export async function waitFor(check: () => boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

export class MemorySecretStore implements SecretStore {
  readonly values = new Map<string, string>()
  async get(key: string): Promise<string | undefined> {
    return this.values.get(key)
  }
  async set(key: string, value: string): Promise<void> {
    this.values.set(key, value)
  }
  async delete(key: string): Promise<void> {
    this.values.delete(key)
  }
}
