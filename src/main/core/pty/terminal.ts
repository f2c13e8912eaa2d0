import { spawn, type IPty } from '@lydell/node-pty'
import type { TerminalInfo, TerminalReplay } from '@shared/schema/terminal'
import { DEFAULT_FLOW_LIMITS, FlowControl, type FlowLimits } from './flow-control'
import { OutputRing } from './output-ring'
import { noteChildStarted } from '../process/owner-marker'
import { descendantGroups, signalGroups } from '../process/tree'
import type { ShellSpec } from './shell'

/**
 * While output streams, it is gathered this long before it is sent: one message
 * per burst, not one per read(). The first output after a quiet spell (an echoed
 * key, a prompt) goes at the end of the tick it arrived in, with whatever else
 * the same tick read.
 */
const BATCH_MS = 5
/** …unless this much has piled up, so single messages stay small enough to parse within a frame. */
const MAX_BATCH_CHARS = 256 * 1024
/** How long a hang-up may take before the process is killed outright. */
const HANGUP_GRACE_MS = 2000

export interface TerminalOptions {
  id: string
  shell: ShellSpec
  /** Absolute working directory (already checked against the workspace boundary). */
  cwd: string
  /** The same, project-relative, as reported to clients. */
  cwdRel: string
  cols: number
  rows: number
  env: Record<string, string>
  flow?: FlowLimits
  onData(data: string, offset: number): void
  onExit(exit: { exitCode: number; signal: number | null }): void
}

/** One pty process with batched output, flow control and a replay buffer. */
export class Terminal {
  private readonly pty: IPty
  private readonly flow: FlowControl
  private readonly ring: OutputRing
  private pending: string[] = []
  private pendingChars = 0
  private timer: NodeJS.Timeout | null = null
  private immediate: NodeJS.Immediate | null = null
  /** When output was last sent (ms, monotonic): within BATCH_MS of it, output is streaming. */
  private lastFlush = -Infinity
  private exitInfo: TerminalInfo['exit'] = null
  private readonly exited: Promise<void>

  constructor(private readonly options: TerminalOptions) {
    this.ring = new OutputRing({ cols: options.cols, rows: options.rows })
    noteChildStarted()
    this.pty = spawn(options.shell.file, options.shell.args, {
      name: 'xterm-256color',
      cols: options.cols,
      rows: options.rows,
      cwd: options.cwd,
      env: options.env,
    })
    this.flow = new FlowControl(
      options.flow ?? DEFAULT_FLOW_LIMITS,
      () => this.pty.pause(),
      () => this.pty.resume(),
    )
    this.pty.onData((data) => this.receive(data))
    this.exited = new Promise((resolve) => {
      this.pty.onExit(({ exitCode, signal }) => {
        this.flush()
        this.exitInfo = { exitCode, signal: signal ? signal : null }
        options.onExit(this.exitInfo)
        resolve()
      })
    })
  }

  get id(): string {
    return this.options.id
  }

  get pid(): number {
    return this.pty.pid
  }

  get isRunning(): boolean {
    return this.exitInfo === null
  }

  /** Characters sent to clients and not yet acknowledged. */
  get backlog(): number {
    return this.flow.backlog
  }

  get isPaused(): boolean {
    return this.flow.isPaused
  }

  info(): TerminalInfo {
    return {
      id: this.options.id,
      pid: this.pty.pid,
      shell: this.options.shell.file,
      cwd: this.options.cwdRel,
      cols: this.pty.cols,
      rows: this.pty.rows,
      exit: this.exitInfo,
    }
  }

  write(data: string): void {
    if (this.isRunning) this.pty.write(data)
  }

  resize(cols: number, rows: number): void {
    if (!this.isRunning) return
    // What was read before the resize was written at the old size.
    this.flush()
    this.pty.resize(cols, rows)
    this.ring.resized(cols, rows)
  }

  ack(chars: number): void {
    this.flow.acknowledged(chars)
  }

  replay(): TerminalReplay {
    this.flush()
    this.flow.reset()
    return this.ring.snapshot()
  }

  private receive(data: string): void {
    this.pending.push(data)
    this.pendingChars += data.length
    if (this.pendingChars >= MAX_BATCH_CHARS) this.flush()
    else if (this.timer || this.immediate) return
    else if (performance.now() - this.lastFlush < BATCH_MS) this.timer = setTimeout(() => this.flush(), BATCH_MS)
    else this.immediate = setImmediate(() => this.flush())
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer)
    if (this.immediate) clearImmediate(this.immediate)
    this.timer = null
    this.immediate = null
    if (this.pendingChars === 0) return
    this.lastFlush = performance.now()
    const data = this.pending.length === 1 ? (this.pending[0] as string) : this.pending.join('')
    this.pending = []
    this.pendingChars = 0
    const offset = this.ring.end
    this.ring.push(data)
    this.flow.sent(data.length)
    this.options.onData(data, offset)
  }

  /** Hangs up (SIGHUP, as closing a terminal window does), then kills if the shell lingers. */
  async kill(): Promise<void> {
    if (!this.isRunning) return
    // A paused pty would never read the hang-up's consequences; let it drain.
    if (this.flow.isPaused) this.flow.reset()
    const win = process.platform === 'win32'
    if (win) this.pty.kill()
    else {
      // Jobs in their own process groups (`cmd &` under job control) would outlive the
      // shell unless it forwards the hang-up; not every shell does, so tell them too.
      // A job started with nohup ignores this, as it would when a terminal window closes.
      const groups = descendantGroups(this.pid)
      this.pty.kill('SIGHUP')
      signalGroups(groups, 'SIGHUP')
    }
    if (await settles(this.exited, HANGUP_GRACE_MS)) return
    this.pty.kill(win ? undefined : 'SIGKILL')
    if (!(await settles(this.exited, HANGUP_GRACE_MS))) {
      throw new Error(`terminal ${this.id} (pid ${this.pid}) did not exit after SIGKILL`)
    }
  }
}

function settles(promise: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms)
    promise.then(
      () => {
        clearTimeout(timer)
        resolve(true)
      },
      () => {
        // An exit that failed to be observed is not an exit: the caller escalates.
        clearTimeout(timer)
        resolve(false)
      },
    )
  })
}
