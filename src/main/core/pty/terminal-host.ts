import { statSync } from 'node:fs'
import { ErrorNames, HotaruError } from '@shared/errors'
import type { TerminalInfo } from '@shared/schema/terminal'
import type { BusPayload, EventBus } from '../bus/bus'
import type { ProjectInstance } from '../project/instance'
import { ServiceKey } from '../project/service-key'
import { resolveInside } from '../project/boundary'
import type { FlowLimits } from './flow-control'
import { terminalEnv, userShell, type ShellSpec } from './shell'
import { Terminal } from './terminal'

/** A runaway script must not be able to fork terminals without bound. */
const MAX_TERMINALS = 32
const SERVICE_KEY = new ServiceKey<TerminalHost>('pty.terminals')

export interface TerminalHostOptions {
  projectId: string
  root: string
  /** Publishes `pty:*` events in the project's scope. */
  publish<C extends 'pty:data' | 'pty:exit'>(channel: C, payload: BusPayload<C>): void
  shell?: ShellSpec
  env?: Record<string, string>
  /** Variables on top of `env`, read when each terminal starts (a worktree's ports). */
  extraEnv?: () => Readonly<Record<string, string>>
  flow?: FlowLimits
}

/** The terminals of one project; disposed (every process killed) when the project closes. */
export class TerminalHost {
  private readonly terminals = new Map<string, Terminal>()
  private nextId = 1
  private disposed = false

  constructor(private readonly options: TerminalHostOptions) {}

  /**
   * Starts the user's shell in the project, or `command` (a dev server of the preview) with `env`
   * on top; `onExit` hears when its process ends.
   */
  create(input: {
    cols: number
    rows: number
    cwd?: string
    command?: ShellSpec
    /** Replaces the user's environment the terminal starts from (a sandboxed command's, secrets removed). */
    baseEnv?: Record<string, string>
    env?: Record<string, string>
    onExit?: (exit: { exitCode: number; signal: number | null }) => void
  }): TerminalInfo {
    if (this.disposed) throw new HotaruError(ErrorNames.ProjectNotOpen, { message: 'the project is closing' })
    if (this.terminals.size >= MAX_TERMINALS) {
      throw new HotaruError(ErrorNames.Forbidden, { message: `a project can have at most ${MAX_TERMINALS} terminals` })
    }
    const cwdRel = input.cwd ?? ''
    const cwd = resolveInside(this.options.root, cwdRel)
    if (!statSync(cwd, { throwIfNoEntry: false })?.isDirectory()) {
      throw new HotaruError(ErrorNames.NotADirectory, { message: `"${cwdRel}" is not a folder`, path: cwdRel })
    }
    const id = `t${this.nextId++}`
    const terminal = new Terminal({
      id,
      shell: input.command ?? this.options.shell ?? userShell(),
      cwd,
      cwdRel,
      cols: input.cols,
      rows: input.rows,
      env: { ...(input.baseEnv ?? this.options.env ?? terminalEnv()), ...this.options.extraEnv?.(), ...input.env },
      flow: this.options.flow,
      onData: (data, offset) => this.options.publish('pty:data', { id, data, offset }),
      onExit: (exit) => {
        this.options.publish('pty:exit', { id, ...exit })
        input.onExit?.(exit)
      },
    })
    this.terminals.set(id, terminal)
    return terminal.info()
  }

  get(id: string): Terminal {
    const terminal = this.terminals.get(id)
    if (!terminal) throw new HotaruError(ErrorNames.NotFound, { message: `terminal ${id} does not exist`, id })
    return terminal
  }

  list(): TerminalInfo[] {
    return [...this.terminals.values()].map((t) => t.info())
  }

  /** Ends the process (if still running) and forgets the terminal. */
  async kill(id: string): Promise<boolean> {
    const terminal = this.terminals.get(id)
    if (!terminal) return false
    this.terminals.delete(id)
    await terminal.kill()
    return true
  }

  async dispose(): Promise<void> {
    this.disposed = true
    const all = [...this.terminals.values()]
    this.terminals.clear()
    const results = await Promise.allSettled(all.map((t) => t.kill()))
    const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')
    if (failures.length > 0) throw new AggregateError(failures.map((f) => f.reason as unknown), 'terminals failed to stop')
  }
}

/** The project's terminal host, created on first use and owned by the project. */
export function terminalsOf(
  project: ProjectInstance,
  bus: EventBus,
  overrides: Pick<TerminalHostOptions, 'shell' | 'env' | 'flow'> = {},
): TerminalHost {
  return project.service(
    SERVICE_KEY,
    (p) =>
      new TerminalHost({
        projectId: p.id,
        root: p.root,
        extraEnv: () => p.commandEnv,
        publish: (channel, payload) => bus.publish(channel, payload, p.id),
        ...overrides,
      }),
  )
}
