import { fork, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const BOOT = fileURLToPath(new URL('./boot.mjs', import.meta.url))
const REGISTER = fileURLToPath(new URL('./register.mjs', import.meta.url))

export interface WindowFacts {
  webPreferences: Record<string, unknown>
  show: boolean
  shown: boolean
  focused: number
  loadState: 'none' | 'loading' | 'loaded' | 'failed'
  url: string
  hasOpenHandler: boolean
  listens: string[]
}

export interface Snapshot {
  calls: { name: string; args: unknown[]; ready: boolean }[]
  schemes: { schemes: { scheme: string; privileges: Record<string, boolean> }[]; beforeReady: boolean }[]
  protocols: string[]
  handlers: string[]
  windows: WindowFacts[]
  dialogs: { title: string; content: string }[]
  opened: string[]
  menus: number
  env: { ESBUILD_BINARY_PATH: string | null }
}

export interface Exit {
  /** Exit code of the process. */
  code: number | null
  /** The code the app passed to `app.exit`, if it called it. */
  appExit: number | null
  /** Error dialogs shown before `app.exit`. */
  dialogs: { title: string; content: string }[]
}

interface Reply {
  id?: number
  type?: string
  ok?: boolean
  value?: unknown
  error?: string
  code?: number
  dialogs?: Exit['dialogs']
}

/** A built main process running in a child Node against the electron stand-in. */
export class ShellProcess {
  readonly child: ChildProcess
  readonly booted: Promise<void>
  readonly exited: Promise<Exit>
  private output = ''
  private nextId = 1
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>()
  private appExit: number | null = null
  private exitDialogs: Exit['dialogs'] = []

  constructor(mainFile: string, options: { env: NodeJS.ProcessEnv; cwd: string; args?: string[] }) {
    this.child = fork(BOOT, [mainFile, ...(options.args ?? [])], {
      execArgv: ['--import', REGISTER],
      env: options.env,
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    })
    this.child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()))
    this.child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()))
    let bootedResolve: () => void = () => undefined
    let bootedReject: (error: Error) => void = () => undefined
    this.booted = new Promise((resolve, reject) => {
      bootedResolve = resolve
      bootedReject = reject
    })
    this.child.on('message', (message: Reply) => {
      if (message.type === 'booted') bootedResolve()
      else if (message.type === 'boot-error') bootedReject(new Error(message.error))
      else if (message.type === 'exit') {
        this.appExit = message.code ?? null
        this.exitDialogs = message.dialogs ?? []
      }
      else if (message.id !== undefined) {
        const waiter = this.pending.get(message.id)
        this.pending.delete(message.id)
        if (message.ok) waiter?.resolve(message.value)
        else waiter?.reject(new Error(message.error))
      }
    })
    this.exited = new Promise((resolve) => {
      this.child.on('exit', (code) => {
        for (const waiter of this.pending.values()) waiter.reject(new Error(`the main process exited (${code}) before answering\n${this.output}`))
        this.pending.clear()
        bootedReject(new Error(`the main process exited (${code}) during boot\n${this.output}`))
        resolve({ code, appExit: this.appExit, dialogs: this.exitDialogs })
      })
    })
    // A boot that ends in exit is looked at through `exited`; nobody need wait on `booted` then.
    this.booted.catch(() => undefined)
  }

  call<T>(type: string, args: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: (value) => resolve(value as T), reject })
      this.child.send({ id, type, ...args })
    })
  }

  /** An IPC call from the app's own page, the way ipcRenderer.invoke arrives in main. */
  invoke<T>(channel: string, payload: unknown, frameUrl?: string): Promise<{ ok: boolean; value?: T; error?: { name: string } }> {
    return this.call('invoke', { channel, payload, frameUrl })
  }

  logs(): string {
    return this.output
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL')
  }
}
