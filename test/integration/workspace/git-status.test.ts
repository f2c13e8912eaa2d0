import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { GitStatus } from '@shared/schema/fs-events'
import { GitStatusTracker, parsePorcelain, readGitStatus } from '../../../src/main/core/project/git-status'
import { makeGitHostile } from '../../support/hostile-git'
import { tempDir, writeTree } from '../../support/temp'
import { until } from '../../support/until'

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd, stdio: 'pipe' })

function repo(files: Record<string, string>): string {
  const root = writeTree(tempDir(), files)
  git(root, 'init', '-q', '-b', 'main')
  git(root, 'add', '.')
  git(root, 'commit', '-qm', 'init')
  return root
}

describe('git status', () => {
  it('parses porcelain output with renames and a subfolder prefix', () => {
    const out = '## main...origin/main [ahead 1]\0 M sub/b.txt\0R  sub/new.txt\0sub/old.txt\0?? sub/u/\0 M top.txt\0UU sub/c.txt\0'
    expect(parsePorcelain(out, 'sub/')).toEqual({
      branch: 'main',
      files: { 'b.txt': 'modified', 'new.txt': 'renamed', 'u/': 'untracked', 'c.txt': 'conflicted' },
    })
  })

  it('reports modified, added, untracked and deleted files of a real repository', async () => {
    const root = repo({ 'a.txt': 'a', 'b.txt': 'b', 'sub/c.txt': 'c' })
    writeFileSync(join(root, 'a.txt'), 'changed')
    writeFileSync(join(root, 'staged.txt'), 's')
    git(root, 'add', 'staged.txt')
    mkdirSync(join(root, 'fresh'))
    writeFileSync(join(root, 'fresh/x.txt'), 'x')
    renameSync(join(root, 'b.txt'), join(root, 'b2.txt'))
    const status = await readGitStatus(root)
    expect(status).toMatchObject({
      repo: true,
      branch: 'main',
      files: { 'a.txt': 'modified', 'staged.txt': 'added', 'fresh/': 'untracked', 'b.txt': 'deleted', 'b2.txt': 'untracked' },
    })
  })

  it('names the branch of a clone that went apart from its upstream, without counting the commits between', async () => {
    const upstream = repo({ 'a.txt': 'a' })
    const clone = tempDir()
    execFileSync('git', ['clone', '-q', upstream, clone], { stdio: 'pipe' })
    git(upstream, 'commit', '-q', '--allow-empty', '-m', 'theirs')
    git(clone, 'commit', '-q', '--allow-empty', '-m', 'ours')
    git(clone, 'fetch', '-q')
    writeFileSync(join(clone, 'a.txt'), 'changed')
    expect(await readGitStatus(clone)).toMatchObject({ repo: true, branch: 'main', files: { 'a.txt': 'modified' } })
    expect(parsePorcelain('## main...origin/main [different]\0', '')).toEqual({ branch: 'main', files: {} })
  })

  it('runs nothing the repository\'s own config names in a restricted folder, and follows the trust decision', async () => {
    const root = repo({ 'a.txt': 'a' })
    const marks = makeGitHostile(root)
    writeFileSync(join(root, 'a.txt'), 'changed')
    let restricted = true
    const seen: GitStatus[] = []
    const tracker = new GitStatusTracker(root, (s) => seen.push(s), () => restricted, 10)
    try {
      expect(await tracker.current()).toMatchObject({ repo: true, branch: 'main', files: { 'a.txt': 'modified', '.gitattributes': 'untracked' } })
      expect(existsSync(join(marks, 'fsmonitor'))).toBe(false)
      expect(existsSync(join(marks, 'filter'))).toBe(false)
      // Once trusted, the folder's own config applies to the next status.
      restricted = false
      writeFileSync(join(root, 'b.txt'), 'b')
      tracker.schedule()
      await until(async () => seen.some((s) => 'b.txt' in s.files), 'the status after trusting')
      expect(existsSync(join(marks, 'fsmonitor'))).toBe(true)
    } finally {
      await tracker.dispose()
    }
  })

  it('makes paths relative to a project that is a subfolder of the repository', async () => {
    const root = repo({ 'top.txt': 't', 'pkg/a.txt': 'a' })
    writeFileSync(join(root, 'top.txt'), 'changed')
    writeFileSync(join(root, 'pkg/a.txt'), 'changed')
    const status = await readGitStatus(join(root, 'pkg'))
    expect(status.files).toEqual({ 'a.txt': 'modified' })
    // Later reads reuse where the project sits in the repository (one git process instead of two).
    expect(status.location).toMatchObject({ prefix: 'pkg/' })
    writeFileSync(join(root, 'pkg/b.txt'), 'new')
    const again = await readGitStatus(join(root, 'pkg'), status.location)
    expect(again.files).toEqual({ 'a.txt': 'modified', 'b.txt': 'untracked' })
  })

  it('a repository removed under a known location is reported as none', async () => {
    const root = repo({ 'a.txt': 'a' })
    const { location } = await readGitStatus(root)
    rmSync(join(root, '.git'), { recursive: true, force: true })
    expect(await readGitStatus(root, location)).toEqual({ repo: false, branch: null, files: {} })
  })

  it('says "not a repository" without an error for a plain folder', async () => {
    const status = await readGitStatus(writeTree(tempDir(), { 'a.txt': '' }))
    expect(status).toEqual({ repo: false, branch: null, files: {} })
  })

  it('tracks commits made outside (index changes) and reports only differences', async () => {
    const root = repo({ 'a.txt': 'a' })
    const seen: GitStatus[] = []
    const tracker = new GitStatusTracker(root, (s) => seen.push(s), () => false, 30)
    try {
      expect((await tracker.current()).files).toEqual({})
      writeFileSync(join(root, 'a.txt'), 'changed')
      tracker.schedule()
      const until = async (test: () => boolean) => {
        const start = Date.now()
        while (!test()) {
          if (Date.now() - start > 5000) throw new Error(`timed out: ${JSON.stringify(seen)}`)
          await new Promise((r) => setTimeout(r, 20))
        }
      }
      await until(() => seen.at(-1)?.files['a.txt'] === 'modified')
      // A commit touches only .git: the tracker watches the index itself.
      git(root, 'commit', '-qam', 'second')
      await until(() => seen.length >= 2 && Object.keys(seen.at(-1)?.files ?? { x: 1 }).length === 0)
    } finally {
      await tracker.dispose()
    }
  })
})
