import { spawnSandboxed } from './sandboxed-spawn'
import type { z } from 'zod'
import type { BackgroundProcess } from '@shared/ipc/process'
import { Emitter, type Subscription } from '../../util/emitter'
import { errorMessage } from '../../extensions/types'
import type { SandboxLaunch } from '../../sandbox/sandbox'
import type { Disposable } from '../../util/disposable'
import { BoundedText } from '../../util/bounded-text'
import { waitForExit } from '../../process/exit'
import { startProcess, type StartedProcess } from '../../process/spawn'
import { describeLeft, killTree, TREE_VARIABLE, treeTag } from '../../process/tree'

/** A background process as the UI lists it (the wire type of `process.list`). */
export type BackgroundInfo = z.infer<typeof BackgroundProcess>

export type BackgroundStatus = BackgroundInfo['status']

export interface BackgroundStart {
  command: string
  cwd: string
  env: NodeJS.ProcessEnv
  shell: string
  sessionId: string
  description?: string
  /** `TREE_VARIABLE`'s value in `env`, so a kill finds every process of the command. Default: a new one. */
  tag?: string
  /** The command wrapped by the OS sandbox; spawned instead of `shell -c command`, disposed when it exits. */
  launch?: Pick<SandboxLaunch, 'command' | 'args' | 'env' | 'stdio' | 'started' | 'settle' | 'dispose'>
}

interface Entry {
  info: BackgroundInfo
  child: StartedProcess
  output: BoundedText
  /** Position up to which the model has read. */
  readPos: number
  exited: Promise<void>
  tag: string
}


export type BackgroundListener = (info: BackgroundInfo) => void

/**
 * The background processes of one project (dev servers, watchers started with
 * bash `background: true`). Each runs detached in its own process group so the
 * whole tree can be stopped. Owned by the project (or the CLI run): `dispose()`
 * ends every one of them.
 */
export class BackgroundProcesses implements Disposable {
  private readonly entries = new Map<string, Entry>()
  private readonly changes = new Emitter<BackgroundInfo>('bash background')
  private counter = 0
  private disposed = false

  constructor(private readonly options: { maxOutputChars?: number; now?: () => number } = {}) {}

  onChange(listener: BackgroundListener): Subscription {
    return this.changes.on(listener)
  }

  /** Resolves once the process runs (its pid known) or failed to start (then its output says why). */
  async start(request: BackgroundStart): Promise<BackgroundInfo> {
    if (this.disposed) throw new Error('the project is closing; no new background processes')
    const launch = request.launch
    const tag = request.tag ?? request.env[TREE_VARIABLE] ?? treeTag()
    const child = launch ? spawnSandboxed(launch, request.cwd) : await startProcess(request.shell, ['-c', request.command], {
      cwd: request.cwd,
      env: { ...request.env, [TREE_VARIABLE]: tag },
      detached: process.platform !== 'win32',
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    if (this.disposed) {
      // The project closed while it was starting: it ends with the others.
      if (child.pid) await killTree(child.pid, { tag })
      throw new Error('the project is closing; no new background processes')
    }
    const now = this.options.now ?? Date.now
    const id = `bg_${++this.counter}`
    const info: BackgroundInfo = {
      id,
      pid: child.pid ?? -1,
      command: request.command,
      cwd: request.cwd,
      sessionId: request.sessionId,
      startedAt: now(),
      status: 'running',
      exitCode: null,
      signal: null,
      ...(request.description ? { description: request.description } : {}),
      ...(launch ? { sandboxed: true } : {}),
    }
    const output = new BoundedText({ maxChars: this.options.maxOutputChars ?? 4 * 1024 * 1024 })
    child.stdout?.on('data', (chunk: Buffer) => output.write(chunk, 'stdout'))
    child.stderr?.on('data', (chunk: Buffer) => output.write(chunk, 'stderr'))
    child.on('error', (error) => output.append(`\n[failed to start: ${error.message}]\n`))
    const exited = waitForExit(child).then(async ({ code, signal }) => {
      output.end()
      const undone = await launch?.settle().catch((error: unknown) => [`[the sandbox could not check protected paths: ${errorMessage(error)}]`])
      if (undone?.length) output.append(`\n${undone.join('\n')}\n`)
      if (info.status === 'running') info.status = 'exited'
      info.exitCode = code
      info.signal = signal
      info.endedAt = now()
      this.changes.emit({ ...info })
      return launch?.dispose()
    })
    this.entries.set(id, { info, child, output, readPos: 0, exited, tag })
    this.changes.emit({ ...info })
    return { ...info }
  }

  list(sessionId?: string): BackgroundInfo[] {
    return [...this.entries.values()].map((e) => ({ ...e.info })).filter((i) => sessionId === undefined || i.sessionId === sessionId)
  }

  get(id: string): BackgroundInfo | undefined {
    const entry = this.entries.get(id)
    return entry ? { ...entry.info } : undefined
  }

  /** Output written since the previous `readNew`, and how much was lost to the buffer cap in between. */
  readNew(id: string): { info: BackgroundInfo; output: string; missed: number } | undefined {
    const entry = this.entries.get(id)
    if (!entry) return undefined
    const { text, missed } = entry.output.since(entry.readPos)
    entry.readPos = entry.output.length
    return { info: { ...entry.info }, output: text, missed }
  }

  /** The latest output, for the UI. */
  tail(id: string, chars = 16_384): string | undefined {
    return this.entries.get(id)?.output.tail(chars)
  }

  /** Stops a process and its whole tree; resolves once it has exited. */
  async kill(id: string): Promise<BackgroundInfo | undefined> {
    const entry = this.entries.get(id)
    if (!entry) return undefined
    if (entry.info.status === 'running') {
      entry.info.status = 'killed'
      const left = entry.info.pid > 0 ? describeLeft(await killTree(entry.info.pid, { tag: entry.tag })) : undefined
      if (left) entry.output.append(`\n[some processes could not be ended: ${left}]\n`)
      await entry.exited
    }
    return { ...entry.info }
  }

  /** Removes an ended process from the list. */
  forget(id: string): boolean {
    const entry = this.entries.get(id)
    if (!entry || entry.info.status === 'running') return false
    return this.entries.delete(id)
  }

  async dispose(): Promise<void> {
    this.disposed = true
    const results = await Promise.allSettled([...this.entries.keys()].map((id) => this.kill(id)))
    const errors = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason as unknown)
    this.changes.clear()
    if (errors.length > 0) throw new AggregateError(errors, `${errors.length} background process(es) could not be stopped`)
  }
}
