import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import { HotaruError } from '@shared/errors'
import { bwrapArgs, unreadableFile } from './bwrap'
import { scrubEnv } from './env'
import { FORWARDER_PORT, FORWARDER_SOURCE } from './forwarder'
import type { SandboxPolicy } from './policy'
import { guardMissingProtected, type ProtectedGuard } from './protected-guard'
import { startDomainProxy, type DomainDecider, type DomainProxy } from './proxy'
import { seatbeltProfile } from './seatbelt'
import type { SandboxSupport } from './support'
import { sandboxNotes } from './violations'

export const SandboxErrorNames = { Unavailable: 'SandboxUnavailable' } as const

/** The sandbox is switched on but cannot run here: nothing runs unsandboxed instead. */
export class SandboxUnavailableError extends HotaruError {
  constructor(support: SandboxSupport) {
    const hint = support.installHint ? ` Install it: ${support.installHint}.` : ''
    super(SandboxErrorNames.Unavailable, {
      message: `The sandbox is on (sandbox.enabled) but cannot run: ${support.problem ?? 'unknown reason'}.${hint} The command was not run.`,
      platform: support.platform,
      backend: support.backend,
    })
  }
}

/** A command ready to spawn inside the sandbox. */
export interface SandboxLaunch {
  command: string
  args: string[]
  env: NodeJS.ProcessEnv
  /** Environment variables kept from the command. */
  droppedEnv: string[]
  /**
   * Everything the command starts ends when the launched process exits (bubblewrap:
   * its own pid namespace, whose init dies with it), so no sweep of leftovers is needed.
   */
  contained: boolean
  /** Hosts the proxy refused while the command ran. */
  blockedDomains(): string[]
  /**
   * After the command has exited: moves protected paths it created out of the project
   * (Linux, see `protected-guard.ts`) and returns a note for each. Runs once; `dispose` runs it too.
   */
  settle(): Promise<string[]>
  /** Settles, and stops the proxy if there is one. Call when the command has exited. */
  dispose(): Promise<void>
}

export interface WrapOptions {
  cwd: string
  env: NodeJS.ProcessEnv
  /** Asked about hosts not on the allowlist (a permission ask); absent: they are refused. */
  decideDomain?: DomainDecider
}

const PROXY_VARS = ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy', 'ALL_PROXY', 'all_proxy']

function proxyEnv(url: string): Record<string, string> {
  const env: Record<string, string> = {}
  for (const name of PROXY_VARS) env[name] = url
  env.NO_PROXY = ''
  env.no_proxy = ''
  return env
}

/**
 * Runs commands of one project inside the OS sandbox: bubblewrap on Linux, a
 * generated Seatbelt profile on macOS. Our own small interface, so the rest of the
 * app never depends on how a platform confines a process.
 */
export class CommandSandbox {
  constructor(
    readonly policy: SandboxPolicy,
    readonly support: SandboxSupport,
  ) {}

  /** Commands go through the sandbox (it is switched on). */
  get enabled(): boolean {
    return this.policy.enabled
  }

  /** Wraps `argv` (the program and its arguments); throws `SandboxUnavailable` when the sandbox is on but cannot run. */
  async wrap(argv: readonly string[], options: WrapOptions): Promise<SandboxLaunch> {
    if (!this.support.available) throw new SandboxUnavailableError(this.support)
    const { env: clean, dropped } = scrubEnv(options.env)
    const tmp = join(this.policy.tempDir, 'tmp')
    const env: NodeJS.ProcessEnv = { ...clean, TMPDIR: tmp, TMP: tmp, TEMP: tmp, HOTARU_SANDBOX: '1' }
    for (const name of PROXY_VARS) delete env[name]
    let proxy: DomainProxy | undefined
    const decide = options.decideDomain ?? (() => Promise.resolve(false))
    try {
      if (this.support.backend === 'bubblewrap') {
        const forwarder = this.policy.network.mode === 'proxy' ? this.support.forwarder : undefined
        if (forwarder && this.policy.network.mode === 'proxy') {
          proxy = await startDomainProxy({
            listen: { path: join(this.policy.tempDir, `proxy-${randomBytes(6).toString('hex')}.sock`) },
            allowedDomains: this.policy.network.allowedDomains,
            decide,
          })
          Object.assign(env, proxyEnv(`http://127.0.0.1:${FORWARDER_PORT}`), forwarder.env)
        }
        const guard = guardMissingProtected(this.policy)
        const args = bwrapArgs(this.policy, { cwd: options.cwd, asRoot: process.getuid?.() === 0, ...(proxy?.socketPath ? { proxySocket: proxy.socketPath } : {}) }, unreadableFile(this.policy))
        const inner = forwarder && proxy?.socketPath ? [forwarder.command, '-e', FORWARDER_SOURCE, proxy.socketPath, String(FORWARDER_PORT), ...argv] : [...argv]
        return this.launch(this.bwrapPath(), [...args, '--', ...inner], env, dropped, proxy, true, guard)
      }
      if (this.policy.network.mode === 'proxy') {
        proxy = await startDomainProxy({ listen: { port: 0 }, allowedDomains: this.policy.network.allowedDomains, decide })
        Object.assign(env, proxyEnv(`http://127.0.0.1:${proxy.port}`))
      }
      const profile = seatbeltProfile(this.policy, proxy?.port !== undefined ? { proxyPort: proxy.port } : {})
      return this.launch('/usr/bin/sandbox-exec', ['-p', profile, ...argv], env, dropped, proxy, false)
    } catch (error) {
      await proxy?.close()
      throw error
    }
  }

  /** Short notes on what the sandbox blocked, from the command's output. */
  notes(output: string, cwd: string, launch?: SandboxLaunch): string[] {
    return sandboxNotes(output, this.policy, cwd, launch?.blockedDomains() ?? [])
  }

  private bwrapPath(): string {
    return this.support.dependencies.find((d) => d.name === 'bubblewrap')?.path ?? 'bwrap'
  }

  private launch(command: string, args: string[], env: NodeJS.ProcessEnv, droppedEnv: string[], proxy: DomainProxy | undefined, contained: boolean, guard?: ProtectedGuard): SandboxLaunch {
    const settle = (): Promise<string[]> => guard?.settle() ?? Promise.resolve([])
    return {
      command,
      args,
      env,
      droppedEnv,
      contained,
      blockedDomains: () => [...(proxy?.blocked ?? [])],
      settle,
      dispose: async () => {
        try {
          await settle()
        } finally {
          await proxy?.close()
        }
      },
    }
  }
}
