import { execFile } from 'node:child_process'
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { HotaruError } from '@shared/errors'
import type { SideChange } from './three-way'

const GIT_TIMEOUT_MS = 120_000
const GIT_MAX_BUFFER = 256 * 1024 * 1024

/** Runs git in `cwd` (`env` added to the environment); a non-zero exit is a `GitFailed` error carrying git's own message. */
export function git(cwd: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      args,
      { cwd, timeout: GIT_TIMEOUT_MS, maxBuffer: GIT_MAX_BUFFER, encoding: 'utf8', env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', ...env } },
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

/**
 * Files of the folder `cwd` that differ from commit `base`: committed and uncommitted changes
 * of tracked files plus untracked, not ignored files, with renames found by git (`-M`, its
 * default 50% similarity). Untracked files take part in rename detection through a copy of
 * the index where they are added as intent-to-add (`git add -N`): the worktree's own index is
 * never written. Paths are relative to `cwd`.
 */
export async function changesSince(cwd: string, base: string): Promise<SideChange[]> {
  const untracked = nulRecords(await git(cwd, ['ls-files', '-z', '--others', '--exclude-standard', '--', '.']))
  // A nested repository is listed as its folder (`sub/`): it stays an added entry of its own.
  const files = untracked.filter((path) => !path.endsWith('/'))
  const diffArgs = ['diff', '--name-status', '-M', '--relative', '-z', base, '--', '.']
  const tracked = files.length === 0 ? await git(cwd, diffArgs) : await withIntentToAdd(cwd, files, (env) => git(cwd, diffArgs, env))
  const changes = new Map<string, SideChange>()
  const records = nulRecords(tracked)
  for (let i = 0; i < records.length; ) {
    const code = records[i] as string
    if (code.startsWith('R')) {
      const from = records[i + 1] as string
      const path = records[i + 2] as string
      changes.set(path, { path, status: 'added', from, similarity: Number(code.slice(1)) || 0 })
      i += 3
      continue
    }
    const path = records[i + 1] as string
    changes.set(path, { path, status: code.startsWith('A') ? 'added' : code.startsWith('D') ? 'deleted' : 'modified' })
    i += 2
  }
  for (const path of untracked) if (!changes.has(path)) changes.set(path, { path, status: 'added' })
  return [...changes.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
}

/** Runs `work` with `GIT_INDEX_FILE` set to a throwaway copy of `cwd`'s index holding `paths` as intent-to-add. */
async function withIntentToAdd<T>(cwd: string, paths: readonly string[], work: (env: Record<string, string>) => Promise<T>): Promise<T> {
  const index = resolve(cwd, (await git(cwd, ['rev-parse', '--git-path', 'index'])).trim())
  const dir = await mkdtemp(join(tmpdir(), 'hotaru-index-'))
  try {
    const env = { GIT_INDEX_FILE: join(dir, 'index') }
    await copyFile(index, env.GIT_INDEX_FILE)
    const list = join(dir, 'paths')
    await writeFile(list, paths.join('\0'))
    await git(cwd, ['--literal-pathspecs', 'add', '--intent-to-add', `--pathspec-from-file=${list}`, '--pathspec-file-nul'], env)
    return await work(env)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** git failing on another worktree's admin folder that a concurrent `git worktree add` has not finished writing. */
const HALF_MADE_WORKTREE = /failed to read \S*worktrees\/[^/\s]+\/(commondir|gitdir|HEAD)/

/**
 * `git worktree add -b <branch> <dir> <base>`. Another process adding a worktree of the same
 * repository at that moment (two `hotaru run -w` at once) can make git fail on that worktree's
 * half-written admin folder; then whatever this attempt made (its branch, its registration) is
 * removed and it tries again after a short pause, a few times.
 */
export async function addWorktree(top: string, config: readonly string[], branch: string, dir: string, base: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await git(top, [...config, 'worktree', 'add', '--quiet', '-b', branch, dir, base])
      return
    } catch (error) {
      if (attempt >= 5 || !(error instanceof HotaruError) || !HALF_MADE_WORKTREE.test(error.message)) throw error
      // Usually nothing was made (git fails while validating); the folder and branch are this call's own.
      // Not `worktree prune`: it would drop the other process's registration, whose folder may not exist yet.
      await git(top, ['worktree', 'remove', '--force', dir]).catch(() => rm(dir, { recursive: true, force: true }))
      // `update-ref`, not `branch -D`: that one reads every worktree too, and fails the same way. A missing ref is no error.
      await git(top, ['update-ref', '-d', `refs/heads/${branch}`])
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt + Math.random() * 100))
    }
  }
}
