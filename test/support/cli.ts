import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { resolve } from 'node:path'

export const ROOT = resolve(import.meta.dirname, '../..')
export const BIN = resolve(ROOT, 'bin/hotaru.js')

export interface Served {
  child: ChildProcessWithoutNullStreams
  url: string
  stderr: () => string
  stop(): Promise<number | null>
}

/** Starts `hotaru serve` as a user would and waits for the URL line. */
export function startServe(args: string[], env: NodeJS.ProcessEnv): Promise<Served> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], { env: { ...process.env, ...env }, cwd: ROOT })
  let stdout = ''
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not print a URL; stderr: ${stderr}`)), 60_000)
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)))
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString()
      const match = /http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]+/.exec(stdout)
      if (!match) return
      clearTimeout(timer)
      resolvePromise({
        child,
        url: match[0],
        stderr: () => stderr,
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done(child.exitCode)
            child.removeAllListeners('exit')
            child.once('exit', (code) => done(code))
            child.kill('SIGTERM')
          }),
      })
    })
  })
}

export interface CliResult {
  code: number | null
  stdout: string
  stderr: string
}

/**
 * Runs the real `hotaru` CLI without blocking this process (a fake server may live here).
 * `prefix`: a command the CLI runs under (e.g. `setpriv …`).
 */
export function runHotaru(args: string[], env: NodeJS.ProcessEnv, cwd?: string, prefix: string[] = []): Promise<CliResult> {
  return new Promise((resolvePromise) => {
    const [file, ...rest] = [...prefix, process.execPath, BIN, ...args] as [string, ...string[]]
    const child = spawn(file, rest, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }))
  })
}

/** An environment whose home, config and data live in `dataDir` and whose providers point at a fake server. */
export function fakeProviderEnv(
  server: { anthropicBaseURL: string; openaiBaseURL: string },
  dataDir: string,
  extra: NodeJS.ProcessEnv = {},
): NodeJS.ProcessEnv {
  return {
    ...process.env,
    HOME: dataDir,
    XDG_CONFIG_HOME: resolve(dataDir, 'config'),
    HOTARU_DATA_DIR: dataDir,
    ANTHROPIC_API_KEY: 'sk-test',
    ANTHROPIC_BASE_URL: server.anthropicBaseURL,
    OPENAI_API_KEY: 'sk-test',
    OPENAI_BASE_URL: server.openaiBaseURL,
    ...extra,
  }
}
