import type { ChildProcess } from 'node:child_process'
import { closeSync, existsSync, mkdirSync, openSync, writeFileSync } from 'node:fs'
import { Socket } from 'node:net'
import { join } from 'node:path'
import { HotaruError } from '@shared/errors'
import { bwrapArgs, unreadableFile } from './bwrap'
import { scrubEnv } from './env'
import { FORWARDER_PORT, FORWARDER_SOURCE } from './forwarder'
import type { SandboxPolicy } from './policy'
import { guardMissingProtected, type ProtectedGuard } from './protected-guard'
import { startDomainProxy, type DomainDecider, type DomainProxy } from './proxy'
import { seatbeltProfile } from './seatbelt'
import { unixSocketFilter, unixSocketFilterSupported, unixSocketsUnfiltered } from './seccomp'
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
  /**
   * Entries to append to the spawn's `stdio` after stdin, stdout and stderr (fd 3 on): the
   * seccomp program's fd, the relay's IPC channel. Pass them, then call `started` at once.
   */
  stdio: Array<number | 'ipc'>
  /** Hands the spawned child over: closes our copy of passed fds and serves the relay's connections. */
  started(child: ChildProcess): void
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
  /**
   * The command serves on loopback ports that must be reachable from outside it (a preview's dev
   * server): it keeps the machine's network, so the network rules (`none`, the domain proxy) do not
   * apply to it; the file rules do.
   */
  shareNetwork?: boolean
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
  private filterFile: string | undefined

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
    let filterFd: number | undefined
    const decide = options.decideDomain ?? (() => Promise.resolve(false))
    try {
      if (this.support.backend === 'bubblewrap') {
        const filter = this.unixSocketFilterFile()
        // Opened per launch: a shared fd would share its read offset between two starting commands.
        filterFd = filter ? openSync(filter, 'r') : undefined
        const forwarder = this.policy.network.mode === 'proxy' && !options.shareNetwork ? this.support.forwarder : undefined
        if (forwarder && this.policy.network.mode === 'proxy') {
          proxy = await startDomainProxy({ allowedDomains: this.policy.network.allowedDomains, decide })
          Object.assign(env, proxyEnv(`http://127.0.0.1:${FORWARDER_PORT}`), forwarder.env)
        }
        const guard = guardMissingProtected(this.policy)
        const stdio: Array<number | 'ipc'> = [...(filterFd !== undefined ? [filterFd] : []), ...(proxy ? (['ipc'] as const) : [])]
        const args = bwrapArgs(
          this.policy,
          { cwd: options.cwd, asRoot: process.getuid?.() === 0, shareNetwork: options.shareNetwork === true, ...(filterFd !== undefined ? { seccompFd: 3 } : {}) },
          unreadableFile(this.policy),
        )
        const inner = forwarder && proxy ? [forwarder.command, '-e', FORWARDER_SOURCE, String(FORWARDER_PORT), ...argv] : [...argv]
        return this.launch({ command: this.bwrapPath(), args: [...args, '--', ...inner], env, dropped, proxy, contained: true, guard, stdio, filterFd })
      }
      if (this.policy.network.mode === 'proxy' && !options.shareNetwork) {
        proxy = await startDomainProxy({ listen: { port: 0 }, allowedDomains: this.policy.network.allowedDomains, decide })
        Object.assign(env, proxyEnv(`http://127.0.0.1:${proxy.port}`))
      }
      const profile = seatbeltProfile(this.policy, { ...(proxy?.port !== undefined ? { proxyPort: proxy.port } : {}), shareNetwork: options.shareNetwork === true })
      return this.launch({ command: '/usr/bin/sandbox-exec', args: ['-p', profile, ...argv], env, dropped, proxy, contained: false, stdio: [] })
    } catch (error) {
      if (filterFd !== undefined) closeSync(filterFd)
      await proxy?.close()
      throw error
    }
  }

  /**
   * The seccomp program that refuses unix sockets, written once into the private folder
   * (read-only inside: only its `tmp` is writable); undefined when they stay allowed —
   * `allowUnixSockets: true`, or a CPU the filter does not know (set `false` to refuse there).
   */
  private unixSocketFilterFile(): string | undefined {
    if (this.policy.allowUnixSockets === true) return undefined
    if (!unixSocketFilterSupported()) {
      if (this.policy.allowUnixSockets === false) throw new SandboxUnavailableError({ ...this.support, problem: unixSocketsUnfiltered() })
      return undefined
    }
    // Written again if a temp cleaner removed it since.
    const file = join(this.policy.tempDir, 'unix-sockets.bpf')
    if (this.filterFile !== file || !existsSync(file)) {
      mkdirSync(this.policy.tempDir, { recursive: true, mode: 0o700 })
      writeFileSync(file, unixSocketFilter(), { mode: 0o644 })
      this.filterFile = file
    }
    return file
  }

  /** Short notes on what the sandbox blocked, from the command's output. */
  notes(output: string, cwd: string, launch?: SandboxLaunch): string[] {
    return sandboxNotes(output, this.policy, cwd, launch?.blockedDomains() ?? [])
  }

  private bwrapPath(): string {
    return this.support.dependencies.find((d) => d.name === 'bubblewrap')?.path ?? 'bwrap'
  }

  private launch(spec: {
    command: string
    args: string[]
    env: NodeJS.ProcessEnv
    dropped: string[]
    proxy: DomainProxy | undefined
    contained: boolean
    stdio: Array<number | 'ipc'>
    guard?: ProtectedGuard
    filterFd?: number
  }): SandboxLaunch {
    const { proxy, guard } = spec
    let filterFd = spec.filterFd
    const closeFilter = (): void => {
      if (filterFd !== undefined) closeSync(filterFd)
      filterFd = undefined
    }
    const settle = (): Promise<string[]> => guard?.settle() ?? Promise.resolve([])
    return {
      command: spec.command,
      args: spec.args,
      env: spec.env,
      stdio: spec.stdio,
      droppedEnv: spec.dropped,
      contained: spec.contained,
      started: (child) => {
        closeFilter()
        if (!proxy) return
        child.on('message', (message, handle) => {
          // Anything else over the channel (the command may reach it too) is dropped.
          if (handle instanceof Socket) {
            if (message === 'connection') proxy.accept(handle)
            else handle.destroy()
          } else if (handle) handle.close()
        })
      },
      blockedDomains: () => [...(proxy?.blocked ?? [])],
      settle,
      dispose: async () => {
        closeFilter()
        try {
          await settle()
        } finally {
          await proxy?.close()
        }
      },
    }
  }
}
