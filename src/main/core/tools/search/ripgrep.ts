import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { rgPath } from '@vscode/ripgrep'

/** The ripgrep binary shipped in `@vscode/ripgrep`, or null when it is missing (then the JS search is used). */
export function bundledRipgrep(): string | null {
  return rgPath && existsSync(rgPath) ? rgPath : null
}

/** Flags shared by grep and glob: hidden files included, .gitignore honoured even outside a git repo, .git skipped. */
export const RG_COMMON_ARGS = ['--no-config', '--hidden', '--no-require-git', '--glob', '!.git', '--glob', '!node_modules']

export interface RipgrepRun {
  code: number | null
  stderr: string
}

/**
 * Runs rg and hands each stdout line to `onLine` as it arrives (no whole-output
 * buffering). Exit code 1 means "no match"; 2 means errors, possibly with results.
 */
export function runRipgrep(
  rg: string,
  args: string[],
  cwd: string,
  signal: AbortSignal,
  onLine: (line: string) => void,
): Promise<RipgrepRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(rg, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], signal })
    let rest = ''
    let stderr = ''
    child.stdout.setEncoding('utf8')
    child.stdout.on('data', (chunk: string) => {
      const text = rest + chunk
      const lines = text.split('\n')
      rest = lines.pop() ?? ''
      for (const line of lines) onLine(line)
    })
    child.stderr.setEncoding('utf8')
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 64 * 1024) stderr += chunk
    })
    child.on('error', reject)
    child.on('close', (code) => {
      if (rest) onLine(rest)
      resolve({ code, stderr })
    })
  })
}
