import { execFile } from 'node:child_process'
import { HotaruError } from '@shared/errors'

const GIT_TIMEOUT_MS = 120_000
const GIT_MAX_BUFFER = 256 * 1024 * 1024

/** Runs git in `cwd`; a non-zero exit is a `GitFailed` error carrying git's own message. */
export function git(cwd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      args,
      { cwd, timeout: GIT_TIMEOUT_MS, maxBuffer: GIT_MAX_BUFFER, encoding: 'utf8', env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' } },
      (error, stdout, stderr) => {
        if (!error) {
          resolve(stdout)
          return
        }
        const detail = stderr.trim() || error.message
        reject(new HotaruError('GitFailed', { message: `git ${args[0] ?? ''} failed: ${detail}`, args }))
      },
    )
  })
}

/** git with raw bytes out (file contents). */
export function gitBytes(cwd: string, args: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, timeout: GIT_TIMEOUT_MS, maxBuffer: GIT_MAX_BUFFER, encoding: 'buffer' }, (error, stdout, stderr) => {
      if (error) reject(new HotaruError('GitFailed', { message: `git ${args[0] ?? ''} failed: ${stderr.toString().trim() || error.message}`, args }))
      else resolve(stdout)
    })
  })
}

/** The repository a folder belongs to, and the folder's place in it; null when it is not in a git work tree with a commit. */
export async function gitRepoOf(root: string): Promise<{ top: string; prefix: string; head: string } | null> {
  try {
    const out = await git(root, ['rev-parse', '--show-toplevel', '--show-prefix', '--verify', 'HEAD'])
    const [top, prefix, head] = out.split('\n')
    if (!top || head === undefined || !/^[0-9a-f]{40,64}$/.test(head)) return null
    return { top, prefix: (prefix ?? '').replace(/\/$/, ''), head }
  } catch (error) {
    if (error instanceof HotaruError && error.name === 'GitFailed') return null
    throw error
  }
}

/** The default branch's commit: `origin/HEAD`, else `main`, else `master`, else HEAD. */
export async function defaultBranchCommit(cwd: string): Promise<string> {
  for (const ref of ['refs/remotes/origin/HEAD', 'refs/heads/main', 'refs/heads/master']) {
    try {
      return (await git(cwd, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])).trim()
    } catch (error) {
      if (!(error instanceof HotaruError && error.name === 'GitFailed')) throw error
    }
  }
  return (await git(cwd, ['rev-parse', '--verify', 'HEAD^{commit}'])).trim()
}

/** Splits NUL-separated git output into its records. */
export function nulRecords(out: string): string[] {
  return out.split('\0').filter((r) => r !== '')
}

export type GitChange = { path: string; status: 'added' | 'modified' | 'deleted' }

/**
 * Files of the folder `cwd` that differ from commit `base`: committed and uncommitted
 * changes of tracked files (`git diff <base>`, renames as delete + add) plus untracked,
 * not ignored files. Paths are relative to `cwd`.
 */
export async function changesSince(cwd: string, base: string): Promise<GitChange[]> {
  const [tracked, untracked] = await Promise.all([
    git(cwd, ['diff', '--name-status', '--no-renames', '--relative', '-z', base, '--', '.']),
    git(cwd, ['ls-files', '-z', '--others', '--exclude-standard', '--', '.']),
  ])
  const changes = new Map<string, GitChange>()
  const records = nulRecords(tracked)
  for (let i = 0; i + 1 < records.length; i += 2) {
    const code = records[i] as string
    const path = records[i + 1] as string
    changes.set(path, { path, status: code.startsWith('A') ? 'added' : code.startsWith('D') ? 'deleted' : 'modified' })
  }
  for (const path of nulRecords(untracked)) changes.set(path, { path, status: 'added' })
  return [...changes.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
}
