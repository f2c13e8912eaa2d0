import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { cp, lstat, mkdir, readdir, rename, rm } from 'node:fs/promises'
import { lstatSync } from 'node:fs'
import { basename, dirname, join, relative } from 'node:path'
import { promisify } from 'node:util'
import type { SandboxPolicy } from './policy'

const run = promisify(execFile)

/**
 * git config keys a fresh `git init` or `git clone` writes, none of which makes git run a program.
 * Anything else in a config the command created (core.fsmonitor, core.hooksPath, core.sshCommand,
 * filters, aliases, includes…) would run later, outside the sandbox, when the user runs git.
 */
const SAFE_GIT_KEY =
  /^(?:core\.(?:repositoryformatversion|filemode|bare|logallrefupdates|ignorecase|precomposeunicode|symlinks|autocrlf|eol)|extensions\.(?:objectformat|refstorage|worktreeconfig)|init\.defaultbranch|remote\.[^\n]+\.(?:url|fetch|pushurl|tagopt|prune)|branch\.[^\n]+\.(?:remote|merge|rebase)|user\.(?:name|email)|pull\.rebase)$/

function exists(path: string): boolean {
  try {
    lstatSync(path)
    return true
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return false
    throw error
  }
}

/** What a guard found and undid after a command: one note per path. */
export interface ProtectedGuard {
  /** Moves protected paths the command created out of the project; the notes say where to. Runs once. */
  settle(): Promise<string[]>
}

/**
 * Protection of protected paths that did not exist when a command started (Linux).
 *
 * A mount can only cover a name that exists: bubblewrap creates a missing mount point on
 * the host, inside the real project (an empty `.mcp.json`, an empty `.git` in a folder
 * without git) while the command runs. So nothing is mounted for a missing protected path;
 * instead, once the command has ended — its pid namespace ends everything it started — a
 * protected path it created is moved out of the project into the sandbox's private folder,
 * and a note names both places. A `.git` the command created (git init, git clone) stays
 * usable: only hooks that are not git's own samples and a config with keys that run
 * programs are moved.
 */
export function guardMissingProtected(policy: SandboxPolicy): ProtectedGuard {
  const missing = policy.protectedWrites.filter((path) => !exists(path))
  // A protected path inside a folder that is missing too (`.git/hooks` with no `.git`): a new repository.
  const freshParents = new Set(missing.map((path) => dirname(path)).filter((dir) => !exists(dir)))
  let settled: Promise<string[]> | undefined
  return {
    settle: () => (settled ??= settle(policy, missing, freshParents)),
  }
}

async function settle(policy: SandboxPolicy, missing: string[], freshParents: Set<string>): Promise<string[]> {
  const notes: string[] = []
  const aside = join(policy.tempDir, 'blocked', `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}`)
  const moveAside = async (path: string, why: string): Promise<void> => {
    const target = join(aside, relative('/', path))
    await mkdir(dirname(target), { recursive: true, mode: 0o700 })
    try {
      await rename(path, target)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error
      await cp(path, target, { recursive: true, verbatimSymlinks: true })
      await rm(path, { recursive: true, force: true })
    }
    notes.push(`blocked by the sandbox: ${why}: ${path} (moved to ${target})`)
  }
  for (const dir of freshParents) {
    if (!exists(dir)) continue
    // A `.git` file (`gitdir: …`) or link, or a `commondir`, points git at hooks and config elsewhere.
    if (!(await lstat(dir)).isDirectory()) await moveAside(dir, 'created a protected path')
    else for (const pointer of ['commondir', 'gitdir']) if (exists(join(dir, pointer))) await moveAside(join(dir, pointer), 'created a protected path')
  }
  for (const path of missing) {
    if (!exists(path)) continue
    if (!freshParents.has(dirname(path))) {
      await moveAside(path, 'created a protected path')
      continue
    }
    const name = basename(path)
    if (name === 'hooks' && (await lstat(path)).isDirectory()) {
      for (const hook of await readdir(path)) {
        if (!hook.endsWith('.sample')) await moveAside(join(path, hook), 'created a git hook')
      }
    } else if (name === 'config') {
      const unsafe = await unsafeGitKeys(path)
      if (unsafe.length > 0) await moveAside(path, `created a git config that runs programs (${unsafe.join(', ')})`)
    } else {
      await moveAside(path, 'created a protected path')
    }
  }
  return notes
}

/** Keys of a git config file outside the safe list; the whole file counts as unsafe when git cannot read it. */
async function unsafeGitKeys(file: string): Promise<string[]> {
  if (!(await lstat(file)).isFile()) return ['not a file']
  try {
    const { stdout } = await run('git', ['config', '--file', file, '--no-includes', '--list', '--name-only', '-z'], { encoding: 'utf8' })
    return [...new Set(stdout.split('\0').filter((key) => key !== '' && !SAFE_GIT_KEY.test(key.toLowerCase())))]
  } catch (error) {
    return [`unreadable: ${(error as Error).message.split('\n')[0] ?? 'git failed'}`]
  }
}
