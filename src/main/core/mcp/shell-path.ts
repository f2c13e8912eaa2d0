import { delimiter } from 'node:path'
import { startProcess } from '../process/spawn'
import { signal } from '../process/tree'

export interface LoginShellPath {
  /** The PATH to start servers with. */
  path: string
  source: 'login-shell' | 'environment'
  /** Why the login shell's PATH could not be used, when it could not. */
  warning?: string
}

const MARK = '__HOTARU_PATH__'
const DEFAULT_TIMEOUT_MS = 5_000

/**
 * The PATH of the user's login shell. An app started from the Dock or a desktop
 * launcher inherits a minimal PATH without the user's `~/.local/bin`, nvm or Homebrew
 * folders, so `npx`/`uvx` servers would not start. The shell runs in a new session
 * with no terminal (so an interactive rc file cannot take over the caller's
 * terminal) and the value is fenced by markers because rc files may print banners.
 */
export async function resolveLoginShellPath(
  env: Readonly<Record<string, string | undefined>>,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<LoginShellPath> {
  const fallback = env.PATH ?? ''
  if (process.platform === 'win32') return { path: fallback, source: 'environment' }
  const shell = env.SHELL || '/bin/sh'
  try {
    const loginPath = await runShell(shell, env, timeoutMs)
    return { path: mergePaths(loginPath, fallback), source: 'login-shell' }
  } catch (error) {
    return {
      path: fallback,
      source: 'environment',
      warning: `could not read PATH from the login shell ${shell} (${(error as Error).message}); MCP servers start with the app's own PATH`,
    }
  }
}

let cached: Promise<LoginShellPath> | undefined

let environmentOnly = false

/**
 * Resolved once per process: the login shell costs tens to hundreds of milliseconds. After
 * `useEnvironmentPath`, the PATH of `env` itself.
 */
export function loginShellPathOnce(env: Readonly<Record<string, string | undefined>>): Promise<LoginShellPath> {
  if (environmentOnly) return Promise.resolve({ path: env.PATH ?? '', source: 'environment' })
  cached ??= resolveLoginShellPath(env)
  return cached
}

/**
 * A process started from a shell (the `hotaru` commands) already has the user's PATH: servers start with it,
 * as its shell commands do, and no login shell runs (with the user's rc files it takes up to seconds).
 */
export function useEnvironmentPath(): void {
  environmentOnly = true
}

/** The login shell's entries first, then any of the app's own that it lacks (a venv, a CLI run's PATH). */
export function mergePaths(primary: string, secondary: string): string {
  const seen = new Set<string>()
  const out: string[] = []
  for (const entry of [...primary.split(delimiter), ...secondary.split(delimiter)]) {
    if (entry === '' || seen.has(entry)) continue
    seen.add(entry)
    out.push(entry)
  }
  return out.join(delimiter)
}

async function runShell(shell: string, env: Readonly<Record<string, string | undefined>>, timeoutMs: number): Promise<string> {
  const child = await startProcess(shell, ['-ilc', `printf '${MARK}%s${MARK}' "$PATH"`], {
    env: { ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  return new Promise((resolve, reject) => {
    let stdout = ''
    let stderr = ''
    const timer = setTimeout(() => {
      if (child.pid !== undefined) signal(-child.pid, 'SIGKILL')
      reject(new Error(`no answer within ${timeoutMs} ms`))
    }, timeoutMs)
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.once('error', (error: Error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.once('close', (code: number | null) => {
      clearTimeout(timer)
      const match = new RegExp(`${MARK}(.*?)${MARK}`, 's').exec(stdout)
      if (match?.[1]) resolve(match[1])
      else reject(new Error(`exit code ${code}${stderr.trim() ? `: ${stderr.trim().split('\n').slice(-1)[0]}` : ''}`))
    })
  })
}
