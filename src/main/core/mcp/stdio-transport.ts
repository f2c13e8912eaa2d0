import { type ChildProcess, spawn } from 'node:child_process'
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import { guardProcess, releaseProcess } from './exit-guard'
import { LineTail } from '../util/line-tail'
import { describeLeft, killTree, signal, taggedProcesses, TREE_VARIABLE, treeTag } from '../process/tree'

export interface StdioLaunch {
  command: string
  args: string[]
  cwd: string
  env: Record<string, string>
  /** How long SIGTERM may take before SIGKILL when closing. */
  killGraceMs?: number
  /** More `stdio` entries (fd 3 on) and a hand-over of the child: what an OS-sandboxed launch passes. */
  stdio?: Array<number | 'ipc'>
  started?(child: ChildProcess): void
}

/** One stdout line longer than this is a broken server, not a message worth buffering. */
const MAX_LINE_BYTES = 32 * 1024 * 1024
/** After the server process exits, how long its pipes may stay open (held by a grandchild). */
const PIPE_DRAIN_MS = 500

/**
 * MCP over a child process's stdin/stdout, written for ownership rather than taken
 * from the SDK: the server runs in its own process group so its whole tree (an
 * `npx` wrapper and the real server, workers…) can be ended together; stderr is
 * kept (last 50 lines) to explain failures; lines that are not JSON-RPC are kept
 * too, so "the server printed garbage" can be told to the user.
 */
export class StdioProcessTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  /** A stdout line was not JSON-RPC (also reported through `onerror`). */
  oninvalid?: () => void

  readonly stderr = new LineTail(50)
  /** The first few stdout lines that were not JSON-RPC. */
  readonly invalidOutput: string[] = []
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined
  spawnError: NodeJS.ErrnoException | undefined

  private child: ChildProcess | undefined
  private buffer: Buffer = Buffer.alloc(0)
  private closePromise: Promise<void> | undefined
  private closeNotified = false
  /**
   * `TREE_VARIABLE` of the server's processes: a child that double-forked out of its group and parentage
   * (`(setsid helper &)`) is still found and ended with the server, whatever environment the host passes.
   */
  private readonly tag = treeTag()

  constructor(private readonly launch: StdioLaunch) {}

  get pid(): number | undefined {
    return this.child?.pid
  }

  start(): Promise<void> {
    if (this.child) throw new Error('the stdio transport was already started')
    return new Promise((resolve, reject) => {
      const windows = process.platform === 'win32'
      const child = spawn(windows ? windowsCommandLine(this.launch) : this.launch.command, windows ? [] : this.launch.args, {
        cwd: this.launch.cwd,
        env: { ...this.launch.env, [TREE_VARIABLE]: this.tag },
        stdio: ['pipe', 'pipe', 'pipe', ...(this.launch.stdio ?? [])],
        // Own process group (POSIX): the tree can be signalled as one.
        detached: !windows,
        // cmd.exe resolves `npx` to `npx.cmd`; Node will not run .cmd files without a shell.
        shell: windows,
        windowsHide: true,
      })
      this.child = child
      this.launch.started?.(child)
      child.once('spawn', () => {
        if (child.pid !== undefined) guardProcess(child.pid, this.tag)
        resolve()
      })
      child.once('error', (error: NodeJS.ErrnoException) => {
        if (child.pid === undefined) {
          this.spawnError = error
          reject(error)
          return
        }
        this.onerror?.(error)
      })
      child.once('exit', (code, sig) => {
        this.exit = { code, signal: sig }
        if (child.pid !== undefined && !this.closePromise) this.reapGroup(child.pid)
        // Normally 'close' follows once stdout has drained; a grandchild that escaped
        // the group may hold the pipes open, so do not wait for it forever.
        setTimeout(() => this.notifyClosed(), PIPE_DRAIN_MS).unref()
      })
      child.once('close', () => this.notifyClosed())
      child.stdout?.on('data', (chunk: Buffer) => this.onStdout(chunk))
      child.stderr?.setEncoding('utf8')
      child.stderr?.on('data', (chunk: string) => this.stderr.push(chunk))
      child.stdin?.on('error', (error) => this.onerror?.(error))
    })
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin
    if (!stdin || stdin.destroyed || this.closePromise) return Promise.reject(new Error('the MCP server process is not running'))
    return new Promise((resolve, reject) => {
      stdin.write(serializeMessage(message), (error) => (error ? reject(error) : resolve()))
    })
  }

  /** Ends the server's whole process tree; safe to call more than once. */
  close(): Promise<void> {
    this.closePromise ??= this.terminate()
    return this.closePromise
  }

  private async terminate(): Promise<void> {
    const child = this.child
    try {
      if (child?.pid !== undefined) {
        // Closing stdin is how MCP asks a stdio server to stop; signals follow at once for its tree.
        child.stdin?.end()
        const left = describeLeft(await killTree(child.pid, { graceMs: this.launch.killGraceMs ?? 1_500, tag: this.tag }))
        releaseProcess(child.pid)
        if (left) throw new Error(`processes of MCP server ${child.pid} could not be ended: ${left}`)
      }
    } finally {
      child?.stdout?.destroy()
      child?.stderr?.destroy()
      this.notifyClosed()
    }
  }

  /** The server itself exited: end what it left behind in its group (workers, wrapped children) and outside it. */
  private reapGroup(pid: number): void {
    if (process.platform === 'win32') {
      releaseProcess(pid)
      return
    }
    const escaped = taggedProcesses(this.tag)
    signal(-pid, 'SIGTERM')
    for (const p of escaped) signal(p, 'SIGTERM')
    setTimeout(() => {
      signal(-pid, 'SIGKILL')
      for (const p of escaped) signal(p, 'SIGKILL')
      releaseProcess(pid)
    }, 1_000).unref()
  }

  private notifyClosed(): void {
    if (this.closeNotified) return
    this.closeNotified = true
    this.onclose?.()
  }

  private onStdout(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk])
    for (;;) {
      const end = this.buffer.indexOf(0x0a)
      if (end === -1) break
      const line = this.buffer.toString('utf8', 0, end).replace(/\r$/, '')
      this.buffer = this.buffer.subarray(end + 1)
      this.onLine(line)
    }
    if (this.buffer.length > MAX_LINE_BYTES) {
      this.buffer = Buffer.alloc(0)
      this.onerror?.(new Error(`the server wrote a line longer than ${MAX_LINE_BYTES} bytes to stdout`))
    }
  }

  private onLine(line: string): void {
    if (line.trim() === '') return
    let message: JSONRPCMessage
    try {
      message = deserializeMessage(line)
    } catch (error) {
      // Some servers log to stdout by mistake; the connection may still work, so the
      // line is kept for the failure reason rather than ending the connection here.
      if (this.invalidOutput.length < 5) this.invalidOutput.push(line.length > 200 ? `${line.slice(0, 200)}…` : line)
      this.onerror?.(new Error(`the server wrote a line that is not MCP JSON-RPC to stdout: ${JSON.stringify(line.slice(0, 200))}`, { cause: error }))
      this.oninvalid?.()
      return
    }
    this.onmessage?.(message)
  }
}

/** cmd.exe command line with each argument quoted where needed. */
function windowsCommandLine(launch: StdioLaunch): string {
  return [launch.command, ...launch.args].map(quoteWindowsArg).join(' ')
}

function quoteWindowsArg(arg: string): string {
  if (arg !== '' && !/[\s"&|<>^%]/.test(arg)) return arg
  return `"${arg.replace(/"/g, '""')}"`
}
