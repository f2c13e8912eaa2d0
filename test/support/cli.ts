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
    const timer = setTimeout(() => reject(new Error(`serve did not print a URL; stderr: ${stderr}`)), 15_000)
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
