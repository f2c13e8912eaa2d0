import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync, unlinkSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { gitRepo, runGit } from '../../support/git-repo'
import { testServices } from '../../support/services'
import { tempDir, writeTree } from '../../support/temp'

describe('worktrees (core)', () => {
  it('creates a git worktree on hotaru/<name>, previews a merge three-way and merges without the conflict', async () => {
    const services = testServices()
    const root = gitRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n', '.gitignore': '.env\n', '.worktreeinclude': '.env\n' })
    writeFileSync(join(root, '.env'), 'SECRET=1\n')
    const parent = services.projects.openFolder(root)
    const { worktree, project } = await services.worktrees.create(parent, { name: 'feat' })
    expect(worktree).toMatchObject({ name: 'feat', kind: 'git', branch: 'hotaru/feat', changedFiles: 0, status: 'idle' })
    expect(project.root).toBe(worktree.path)
    expect(worktree.path.startsWith(root)).toBe(false)
    expect(readFileSync(join(worktree.path, '.env'), 'utf8')).toBe('SECRET=1\n')
    expect(runGit(root, ['worktree', 'list'])).toContain(worktree.path)

    writeFileSync(join(worktree.path, 'a.txt'), 'a from worktree\n')
    writeFileSync(join(worktree.path, 'b.txt'), 'b from worktree\n')
    unlinkSync(join(worktree.path, 'c.txt'))
    writeFileSync(join(worktree.path, 'new.txt'), 'new\n')
    writeFileSync(join(root, 'b.txt'), 'b from the user\n')

    const diff = await services.worktrees.diff(parent, 'feat')
    expect(diff.files.map((f) => [f.path, f.status])).toEqual([
      ['a.txt', 'modified'],
      ['b.txt', 'modified'],
      ['c.txt', 'deleted'],
      ['new.txt', 'added'],
    ])
    const preview = await services.worktrees.previewMerge(parent, 'feat')
    expect(preview.apply.map((a) => [a.path, a.action])).toEqual([
      ['a.txt', 'update'],
      ['c.txt', 'delete'],
      ['new.txt', 'create'],
    ])
    expect(preview.conflicts.map((c) => c.path)).toEqual(['b.txt'])
    expect(preview.conflicts[0]?.worktree.diff).toContain('+b from worktree')
    expect(preview.conflicts[0]?.main.diff).toContain('+b from the user')

    await expect(services.worktrees.merge(parent, 'feat')).rejects.toMatchObject({ name: 'WorktreeConflicts' })
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('a\n')

    const merged = await services.worktrees.merge(parent, 'feat', { skipConflicts: true })
    expect(merged).toMatchObject({ written: 2, deleted: 1, skipped: ['b.txt'], branch: 'hotaru/feat' })
    expect(merged.undoCheckpointId).toMatch(/^cp_/)
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('a from worktree\n')
    expect(readFileSync(join(root, 'b.txt'), 'utf8')).toBe('b from the user\n')
    expect(existsSync(join(root, 'c.txt'))).toBe(false)
    // The skipped conflict is still the worktree's own work: not merged, and not removed without --force.
    expect((await services.worktrees.list(parent))[0]?.status).toBe('idle')
    await expect(services.worktrees.remove(parent, 'feat')).rejects.toMatchObject({ name: 'WorktreeUnmerged' })

    const all = await services.worktrees.merge(parent, 'feat', { overwriteConflicts: true })
    expect(all.skipped).toEqual([])
    expect(readFileSync(join(root, 'b.txt'), 'utf8')).toBe('b from worktree\n')
    expect((await services.worktrees.list(parent))[0]?.status).toBe('merged')

    // Undoing that merge from the timeline makes the worktree's changes unmerged again.
    await services.checkpoints.restore(all.undoCheckpointId ?? '', { mode: 'code', overwriteConflicts: true, includeUserCreated: true })
    expect(readFileSync(join(root, 'b.txt'), 'utf8')).toBe('b from the user\n')
    expect((await services.worktrees.list(parent))[0]?.status).toBe('idle')
    await expect(services.worktrees.remove(parent, 'feat')).rejects.toMatchObject({ name: 'WorktreeUnmerged' })

    await services.worktrees.merge(parent, 'feat', { overwriteConflicts: true })
    await services.worktrees.remove(parent, 'feat')
    expect(existsSync(worktree.path)).toBe(false)
    expect(runGit(root, ['worktree', 'list'])).not.toContain(worktree.path)
    expect(runGit(root, ['branch', '--list', 'hotaru/feat'])).toBe('')
    expect(services.projects.find(worktree.projectId)).toBeUndefined()
  })

  it('refuses to remove a worktree with unmerged changes unless forced', async () => {
    const services = testServices()
    const root = gitRepo({ 'a.txt': 'a\n' })
    const parent = services.projects.openFolder(root)
    const { worktree } = await services.worktrees.create(parent, {})
    expect(worktree.name).toMatch(/^[a-z]+-[a-z]+/)
    writeFileSync(join(worktree.path, 'a.txt'), 'changed\n')
    await expect(services.worktrees.remove(parent, worktree.name)).rejects.toMatchObject({ name: 'WorktreeUnmerged' })
    expect(existsSync(join(worktree.path, 'a.txt'))).toBe(true)
    await services.worktrees.remove(parent, worktree.name, { force: true })
    expect(existsSync(worktree.path)).toBe(false)
    expect(runGit(root, ['worktree', 'list']).trim().split('\n')).toHaveLength(1)
  })

  it('creates a git worktree while another one of the repository is half made (another process adding it)', async () => {
    const services = testServices()
    const root = gitRepo({ 'a.txt': 'a\n' })
    // What a concurrent `git worktree add` has written so far: git fails on it until it is complete.
    const ghost = join(root, '.git/worktrees/ghost')
    mkdirSync(ghost, { recursive: true })
    writeFileSync(join(ghost, 'gitdir'), join(tempDir(), 'ghost/.git\n'))
    writeFileSync(join(ghost, 'HEAD'), 'ref: refs/heads/main\n')
    writeFileSync(join(ghost, 'commondir'), '')
    setTimeout(() => writeFileSync(join(ghost, 'commondir'), '../..\n'), 120)
    const parent = services.projects.openFolder(root)
    const { worktree } = await services.worktrees.create(parent, { name: 'racer' })
    expect(readFileSync(join(worktree.path, 'a.txt'), 'utf8')).toBe('a\n')
    expect(runGit(root, ['branch', '--list', 'hotaru/*']).trim()).toBe('+ hotaru/racer')
  })

  it('brings along the ignored files .worktreeinclude matches, in ignored folders and below, and nothing else', async () => {
    const services = testServices()
    const root = gitRepo({
      'app/src/a.ts': 'a\n',
      'app/.gitignore': '.env\ncache/\nbuild/\nlocal.json\n',
      'app/.worktreeinclude': '.env\ncache/\n',
      'app/src/.worktreeinclude': '/local.json\n',
    })
    writeTree(root, {
      'app/.env': 'TOP=1\n',
      'app/src/deep/.env': 'DEEP=1\n',
      'app/cache/x/data.bin': 'cached\n',
      'app/build/out.js': 'not included\n',
      'app/src/local.json': '{}\n',
      'app/src/deep/local.json': 'anchored to src, so not this one\n',
    })
    symlinkSync('.env', join(root, 'app/cache/env-link'))
    const parent = services.projects.openFolder(join(root, 'app'))
    const { worktree } = await services.worktrees.create(parent, { name: 'inc' })
    expect(worktree.path.endsWith('/inc/app')).toBe(true)
    const read = (path: string) => readFileSync(join(worktree.path, path), 'utf8')
    expect([read('.env'), read('src/deep/.env'), read('cache/x/data.bin'), read('src/local.json')]).toEqual(['TOP=1\n', 'DEEP=1\n', 'cached\n', '{}\n'])
    expect(readlinkSync(join(worktree.path, 'cache/env-link'))).toBe('.env')
    expect(existsSync(join(worktree.path, 'build/out.js'))).toBe(false)
    expect(existsSync(join(worktree.path, 'src/deep/local.json'))).toBe(false)
    // The copied files are ignored in the worktree too: it starts with nothing to merge.
    expect(worktree.changedFiles).toBe(0)
    expect(runGit(worktree.path, ['status', '--porcelain'])).toBe('')
  })

  it('copies a non-git folder from its snapshot and merges it back', async () => {
    const services = testServices()
    const root = writeTree(tempDir(), { 'a.txt': 'a\n', 'src/b.txt': 'b\n', '.gitignore': 'secret.txt\n', 'secret.txt': 's\n', '.worktreeinclude': 'secret.txt\n' })
    const parent = services.projects.openFolder(root)
    const { worktree } = await services.worktrees.create(parent, { name: 'copy1' })
    expect(worktree).toMatchObject({ kind: 'copy', branch: null, changedFiles: 0 })
    expect(readFileSync(join(worktree.path, 'src/b.txt'), 'utf8')).toBe('b\n')
    expect(readFileSync(join(worktree.path, 'secret.txt'), 'utf8')).toBe('s\n')
    writeFileSync(join(worktree.path, 'src/b.txt'), 'b2\n')
    writeFileSync(join(root, 'a.txt'), 'user\n')
    const preview = await services.worktrees.previewMerge(parent, 'copy1')
    expect(preview.apply.map((a) => a.path)).toEqual(['src/b.txt'])
    expect(preview.conflicts).toEqual([])
    const merged = await services.worktrees.merge(parent, 'copy1')
    expect(merged.written).toBe(1)
    expect(readFileSync(join(root, 'src/b.txt'), 'utf8')).toBe('b2\n')
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('user\n')
    await services.worktrees.remove(parent, 'copy1')
    expect(existsSync(worktree.path)).toBe(false)
  })

  it('a copy brings along the ignored files .worktreeinclude matches, deep and in ignored folders, links as links, and nothing else', async () => {
    const services = testServices()
    const root = writeTree(tempDir(), {
      'src/a.ts': 'a\n',
      '.gitignore': '.env\ncache/\nbuild/\n',
      '.worktreeinclude': '.env\ncache/\n',
      '.env': 'TOP=1\n',
      'src/deep/.env': 'DEEP=1\n',
      'cache/x/data.bin': 'cached\n',
      'build/out.js': 'not included\n',
      // A nested repository's own `.git` is never walked into, whatever the patterns say.
      'vendor/lib/.git/.env': 'git internals\n',
    })
    symlinkSync('.env', join(root, 'cache/env-link'))
    const parent = services.projects.openFolder(root)
    const { worktree } = await services.worktrees.create(parent, { name: 'inc' })
    const read = (path: string) => readFileSync(join(worktree.path, path), 'utf8')
    expect([read('src/a.ts'), read('.env'), read('src/deep/.env'), read('cache/x/data.bin')]).toEqual(['a\n', 'TOP=1\n', 'DEEP=1\n', 'cached\n'])
    expect(readlinkSync(join(worktree.path, 'cache/env-link'))).toBe('.env')
    expect(existsSync(join(worktree.path, 'build/out.js'))).toBe(false)
    expect(existsSync(join(worktree.path, 'vendor/lib/.git'))).toBe(false)
    // Ignored in the copy as in the main folder: nothing to merge.
    expect(worktree.changedFiles).toBe(0)
    expect((await services.worktrees.previewMerge(parent, 'inc')).apply).toEqual([])
  })

  it('counts a main-tree file the base did not have, even one git ignores, as a conflict with a file the worktree adds', async () => {
    const services = testServices()
    const root = gitRepo({ 'a.txt': 'a\n', '.gitignore': 'build/\n' })
    const parent = services.projects.openFolder(root)
    const { worktree } = await services.worktrees.create(parent, { name: 'adds' })
    // The worktree commits what the main tree only has as an ignored build output.
    writeTree(worktree.path, { 'build/out.js': 'from the worktree\n', 'fresh.txt': 'fresh\n' })
    runGit(worktree.path, ['add', '-f', 'build/out.js', 'fresh.txt'])
    runGit(worktree.path, ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'add'])
    writeTree(root, { 'build/out.js': 'the user\'s build\n' })
    const preview = await services.worktrees.previewMerge(parent, 'adds')
    expect(preview.apply.map((a) => [a.path, a.action])).toEqual([['fresh.txt', 'create']])
    expect(preview.conflicts.map((c) => c.path)).toEqual(['build/out.js'])
    await services.worktrees.merge(parent, 'adds', { skipConflicts: true })
    expect(readFileSync(join(root, 'build/out.js'), 'utf8')).toBe("the user's build\n")
    expect(readFileSync(join(root, 'fresh.txt'), 'utf8')).toBe('fresh\n')
  })

  it('finds conflicts of a copy by reading only the files the copy changed', async () => {
    const services = testServices()
    const root = writeTree(tempDir(), { 'a.txt': 'a\n', 'b.bin': Buffer.from([0, 1, 2, 3]).toString('latin1'), 'c.txt': 'c\n' })
    const parent = services.projects.openFolder(root)
    const { worktree } = await services.worktrees.create(parent, { name: 'bin' })
    writeFileSync(join(worktree.path, 'b.bin'), Buffer.from([0, 9, 9, 9]))
    writeFileSync(join(worktree.path, 'c.txt'), 'c from the copy\n')
    writeFileSync(join(root, 'b.bin'), Buffer.from([0, 7, 7, 7]))
    writeFileSync(join(root, 'a.txt'), 'the user alone\n')
    unlinkSync(join(root, 'c.txt'))
    const preview = await services.worktrees.previewMerge(parent, 'bin')
    expect(preview.apply).toEqual([])
    expect(preview.conflicts.map((c) => c.path)).toEqual(['b.bin', 'c.txt'])
    expect(preview.conflicts[1]?.main.status).toBe('deleted')
  })

  it('knows what a copy changed in the next process too, and leaves nothing of it behind on removal', async () => {
    const dataDir = tempDir('hotaru-data-')
    const first = testServices({ dataDir })
    const root = writeTree(tempDir(), { 'a.txt': 'a\n', 'src/b.txt': 'b\n', 'src/c.txt': 'c\n' })
    const { worktree } = await first.worktrees.create(first.projects.openFolder(root), { name: 'again' })
    writeFileSync(join(worktree.path, 'src/b.txt'), 'B\n')
    unlinkSync(join(worktree.path, 'src/c.txt'))
    await first.dispose()
    // Same size, written after the last comparison was saved: only the content can tell.
    writeFileSync(join(worktree.path, 'a.txt'), 'A\n')
    const next = testServices({ dataDir })
    const parent = next.projects.openFolder(root)
    const diff = await next.worktrees.diff(parent, 'again')
    expect(diff.files.map((f) => [f.path, f.status])).toEqual([['a.txt', 'modified'], ['src/b.txt', 'modified'], ['src/c.txt', 'deleted']])
    await next.worktrees.remove(parent, 'again', { force: true })
    expect(readdirSync(join(dataDir, 'worktrees', '.state')).filter((name) => !name.endsWith('.running'))).toEqual([])
  })
})
