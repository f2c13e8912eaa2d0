import { existsSync } from 'node:fs'
import { startProcess, type StartedProcess } from '../../process/spawn'
import { log } from '../../util/log'
import { resolvePackagedBinary } from '../../util/unpacked-binary'

let cached: { rg: string | null } | undefined

/**
 * The ripgrep binary of `@vscode/ripgrep`'s platform package (outside `app.asar`
 * in a packaged app), or null when that package is missing; then the JS search is
 * used and the tool results say `engine: javascript`. Resolved here, on first use,
 * instead of importing `@vscode/ripgrep`, which throws at import time without it.
 */
export function bundledRipgrep(): string | null {
  cached ??= { rg: findRipgrep(process.platform, process.arch) }
  return cached.rg
}

export function findRipgrep(platform: NodeJS.Platform, arch: string): string | null {
  const binary = platform === 'win32' ? 'rg.exe' : 'rg'
  const rg = resolvePackagedBinary(`@vscode/ripgrep-${platform}-${arch}/bin/${binary}`)
  if (rg && existsSync(rg)) return rg
  log.warn(`[search] no ripgrep binary for ${platform}-${arch} (@vscode/ripgrep-${platform}-${arch}); grep and glob search in JavaScript`)
  return null
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
  return startProcess(rg, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], signal }).then((child) => collectRipgrep(child, onLine))
}

function collectRipgrep(child: StartedProcess, onLine: (line: string) => void): Promise<RipgrepRun> {
  return new Promise((resolve, reject) => {
    let rest = ''
    let stderr = ''
    child.stdout?.setEncoding('utf8')
    child.stdout?.on('data', (chunk: string) => {
      const text = rest + chunk
      const lines = text.split('\n')
      rest = lines.pop() ?? ''
      for (const line of lines) onLine(line)
    })
    child.stderr?.setEncoding('utf8')
    child.stderr?.on('data', (chunk: string) => {
      if (stderr.length < 64 * 1024) stderr += chunk
    })
    child.on('error', reject)
    child.on('close', (code: number | null) => {
      if (rest) onLine(rest)
      resolve({ code, stderr })
    })
  })
}
