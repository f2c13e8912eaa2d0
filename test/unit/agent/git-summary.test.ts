import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { prefetchGitStatus, takeGitStatus } from '../../../src/main/core/agent/git-status-run'
import { gitSummary } from '../../../src/main/core/agent/system-prompt'
import { RESTRICTED_GIT_UNKNOWN } from '../../../src/main/core/project/restricted-git'
import { makeGitHostile } from '../../support/hostile-git'
import { tempDir, writeTree } from '../../support/temp'

const TRUSTED = { restricted: false }
const RESTRICTED = { restricted: true }

function hostileRepo(): { root: string; marks: string } {
  const root = repo()
  return { root, marks: makeGitHostile(root) }
}

function repo(): string {
  const root = writeTree(tempDir(), { 'a.txt': 'one\n' })
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' })
  git('init', '-q', '-b', 'main')
  git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'add', '.')
  git('-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '-m', 'init')
  return root
}

describe('git summary for the system prompt', () => {
  it('names the branch and counts changed files', async () => {
    const root = repo()
    expect(await gitSummary(root, TRUSTED)).toBe('git repository, branch main, clean')
    writeFileSync(join(root, 'a.txt'), 'two\n')
    writeFileSync(join(root, 'b.txt'), 'new\n')
    expect(await gitSummary(root, TRUSTED)).toBe('git repository, branch main, 2 changed file(s)')
  })

  it('says when HEAD is detached, and names the branch of a repository without commits', async () => {
    const root = repo()
    execFileSync('git', ['checkout', '-q', '--detach'], { cwd: root, stdio: 'ignore' })
    expect(await gitSummary(root, TRUSTED)).toBe('git repository, detached HEAD, clean')
    const fresh = writeTree(tempDir(), { 'x.txt': '' })
    execFileSync('git', ['init', '-q', '-b', 'trunk'], { cwd: fresh, stdio: 'ignore' })
    expect(await gitSummary(fresh, TRUSTED)).toBe('git repository, branch trunk, 1 changed file(s)')
  })

  it('leaves the repository\'s index alone, so a git command the user runs meanwhile never meets its lock', async () => {
    const root = repo()
    // A file whose stat changed but not its content: a plain `git status` refreshes that entry and
    // rewrites .git/index under .git/index.lock.
    const later = new Date(Date.now() + 5_000)
    utimesSync(join(root, 'a.txt'), later, later)
    const index = readFileSync(join(root, '.git', 'index'))
    expect(await gitSummary(root, TRUSTED)).toBe('git repository, branch main, clean')
    expect(readFileSync(join(root, '.git', 'index')).equals(index)).toBe(true)
  })

  it('judges a copied tree by size and modification time: it does not read every file again because inodes and change times differ', async () => {
    const root = writeTree(tempDir(), { 'a.txt': 'one\n' })
    // Written well before the index, so git does not treat the entry as racily clean and compare its content anyway.
    const old = new Date('2024-01-01T00:00:00Z')
    utimesSync(join(root, 'a.txt'), old, old)
    const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, stdio: 'ignore' })
    git(root, 'init', '-q', '-b', 'main')
    git(root, 'add', '.')
    git(root, '-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '-m', 'init')
    const copy = tempDir()
    execFileSync('cp', ['-a', `${root}/.`, copy])
    expect(await gitSummary(copy, TRUSTED)).toBe('git repository, branch main, clean')
    // What that trades away: the same size and second of modification hide a change (as in git with this setting).
    writeFileSync(join(copy, 'a.txt'), 'two\n')
    utimesSync(join(copy, 'a.txt'), old, old)
    expect(await gitSummary(copy, TRUSTED)).toBe('git repository, branch main, clean')
    writeFileSync(join(copy, 'a.txt'), 'three\n')
    expect(await gitSummary(copy, TRUSTED)).toBe('git repository, branch main, 1 changed file(s)')
  })

  it('names the branch of a clone behind its upstream', async () => {
    const upstream = repo()
    const clone = tempDir()
    execFileSync('git', ['clone', '-q', upstream, clone], { stdio: 'ignore' })
    execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'later'], { cwd: upstream, stdio: 'ignore' })
    execFileSync('git', ['fetch', '-q'], { cwd: clone, stdio: 'ignore' })
    expect(await gitSummary(clone, TRUSTED)).toBe('git repository, branch main, clean')
  })

  it('runs nothing a restricted folder\'s repository config names (fsmonitor, filters), started ahead or not', async () => {
    const ahead = hostileRepo()
    prefetchGitStatus(ahead.root)
    expect(await gitSummary(ahead.root, RESTRICTED)).toBe('git repository, branch main, 1 changed file(s)')
    const now = hostileRepo()
    expect(await gitSummary(now.root, RESTRICTED)).toBe('git repository, branch main, 1 changed file(s)')
    for (const { marks } of [ahead, now]) {
      expect(existsSync(join(marks, 'fsmonitor'))).toBe(false)
      expect(existsSync(join(marks, 'filter'))).toBe(false)
    }
  })

  it('reads no status of a restricted folder whose filter driver cannot be overridden on git\'s command line', async () => {
    const { root, marks } = hostileRepo()
    execFileSync('git', ['config', 'filter.a=b.clean', `touch '${join(marks, 'filter')}'; cat`], { cwd: root })
    writeFileSync(join(root, '.gitattributes'), '* filter=a=b\n')
    expect(await gitSummary(root, RESTRICTED)).toBe(RESTRICTED_GIT_UNKNOWN)
    expect(existsSync(join(marks, 'filter'))).toBe(false)
    // Trusted, the same folder's status is read (also when the run started ahead was restricted).
    prefetchGitStatus(root)
    expect(await gitSummary(root, TRUSTED)).toBe('git repository, branch main, 1 changed file(s)')
  })

  it('asks git again in a trusted folder when the status started ahead had to leave the repository\'s own filters out', async () => {
    const { root, marks } = hostileRepo()
    prefetchGitStatus(root)
    expect(await gitSummary(root, TRUSTED)).toBe('git repository, branch main, 1 changed file(s)')
    // The folder's own config applies once it is trusted.
    expect(existsSync(join(marks, 'filter'))).toBe(true)
  })

  it('says when the folder is no repository', async () => {
    expect(await gitSummary(tempDir(), TRUSTED)).toBe('not a git repository (or git is unavailable)')
  })

  it('gives up at the time cap instead of holding up the turn', async () => {
    expect(await gitSummary(repo(), { restricted: false, timeoutMs: 1 })).toBe('git repository status unknown (git status took over 1 ms)')
  })

  it('uses a status started ahead of the turn once; the next summary reads the folder again', async () => {
    const root = repo()
    prefetchGitStatus(root)
    // What the command started before the core loaded: the state of the folder at that moment.
    await takeGitStatus(root, false).output
    prefetchGitStatus(root)
    writeFileSync(join(root, 'a.txt'), 'two\n')
    const early = await gitSummary(root, TRUSTED)
    expect(['git repository, branch main, clean', 'git repository, branch main, 1 changed file(s)']).toContain(early)
    expect(await gitSummary(root, TRUSTED)).toBe('git repository, branch main, 1 changed file(s)')
  })

  it('reports a prefetched status of a folder that is no repository like any other', async () => {
    const root = tempDir()
    prefetchGitStatus(root)
    expect(await gitSummary(root, TRUSTED)).toBe('not a git repository (or git is unavailable)')
  })
})
