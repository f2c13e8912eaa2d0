import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { gitRepo, runGit } from '../../support/git-repo'
import { testServices } from '../../support/services'
import { tempDir, writeTree } from '../../support/temp'

const lines = (n: number, tag = 'line'): string => Array.from({ length: n }, (_, i) => `${tag} ${i + 1}`).join('\n') + '\n'

describe('renamed files in worktrees', () => {
  it('shows committed and uncommitted renames of a git worktree as renames and merges them as renames', async () => {
    const services = testServices()
    const root = gitRepo({ 'old.ts': lines(20), 'notes.md': lines(10, 'note'), 'keep.txt': 'keep\n' })
    const parent = services.projects.openFolder(root)
    const { worktree } = await services.worktrees.create(parent, { name: 'mv' })
    // Committed: renamed and edited a little.
    mkdirSync(join(worktree.path, 'src'))
    runGit(worktree.path, ['mv', 'old.ts', 'src/new.ts'])
    writeFileSync(join(worktree.path, 'src/new.ts'), lines(20).replace('line 3\n', 'line three\n'))
    runGit(worktree.path, ['commit', '-qam', 'move'])
    // Uncommitted: moved on disk only, so the new path is an untracked file.
    mkdirSync(join(worktree.path, 'docs'))
    renameSync(join(worktree.path, 'notes.md'), join(worktree.path, 'docs/notes.md'))

    const diff = await services.worktrees.diff(parent, 'mv')
    expect(diff.files.map((f) => [f.from, f.path, f.status, f.similarity])).toEqual([
      ['notes.md', 'docs/notes.md', 'added', 100],
      ['old.ts', 'src/new.ts', 'added', expect.any(Number)],
    ])
    const edited = diff.files[1]
    expect(edited?.similarity).toBeLessThan(100)
    expect(edited).toMatchObject({ additions: 1, deletions: 1 })
    expect(edited?.diff).toContain('--- a/old.ts')
    expect(edited?.diff).toContain('+++ b/src/new.ts')
    expect(edited?.diff).toContain('+line three')
    // Finding the untracked rename wrote nothing into the worktree's own index.
    expect(runGit(worktree.path, ['status', '--porcelain'])).toContain('?? docs/')
    expect((await services.worktrees.list(parent))[0]?.changedFiles).toBe(2)
    const versions = await services.worktrees.fileVersions(parent, 'mv', 'src/new.ts', 'worktree', 'old.ts')
    expect(versions.old?.text).toBe(lines(20))

    const preview = await services.worktrees.previewMerge(parent, 'mv')
    expect(preview.apply.map((a) => [a.action, a.from, a.path])).toEqual([
      ['create', 'notes.md', 'docs/notes.md'],
      ['create', 'old.ts', 'src/new.ts'],
    ])
    expect(preview.conflicts).toEqual([])

    const merged = await services.worktrees.merge(parent, 'mv')
    expect(merged).toMatchObject({ written: 2, deleted: 2, renamed: 2 })
    expect(existsSync(join(root, 'old.ts'))).toBe(false)
    expect(existsSync(join(root, 'notes.md'))).toBe(false)
    expect(readFileSync(join(root, 'src/new.ts'), 'utf8')).toContain('line three')
    expect(readFileSync(join(root, 'docs/notes.md'), 'utf8')).toBe(lines(10, 'note'))
    expect((await services.worktrees.list(parent))[0]?.status).toBe('merged')

    // Undo brings back the old paths and takes the new ones away.
    await services.checkpoints.restore(merged.undoCheckpointId ?? '', { mode: 'code', overwriteConflicts: true, includeUserCreated: true })
    expect(readFileSync(join(root, 'old.ts'), 'utf8')).toBe(lines(20))
    expect(readFileSync(join(root, 'notes.md'), 'utf8')).toBe(lines(10, 'note'))
    expect(existsSync(join(root, 'src/new.ts'))).toBe(false)
    expect(existsSync(join(root, 'docs/notes.md'))).toBe(false)
    expect((await services.worktrees.list(parent))[0]?.status).toBe('idle')
  })

  it('merges the main tree’s edit of a renamed file’s old path into the new one, as git does, and makes a rename a conflict when the main tree has its new path', async () => {
    const services = testServices()
    const root = gitRepo({ 'a.ts': lines(10), 'b.ts': lines(10, 'b') })
    const parent = services.projects.openFolder(root)
    const { worktree } = await services.worktrees.create(parent, { name: 'clash' })
    renameSync(join(worktree.path, 'a.ts'), join(worktree.path, 'a2.ts'))
    renameSync(join(worktree.path, 'b.ts'), join(worktree.path, 'b2.ts'))
    writeFileSync(join(root, 'a.ts'), lines(10).replace('line 1\n', 'user edit\n'))
    writeFileSync(join(root, 'b2.ts'), 'the user made this one\n')

    const preview = await services.worktrees.previewMerge(parent, 'clash')
    expect(preview.apply).toEqual([])
    expect(preview.merged.map((m) => [m.from, m.path])).toEqual([['a.ts', 'a2.ts']])
    expect(preview.conflicts.map((c) => [c.worktree.from, c.path, c.main.path, c.main.status])).toEqual([['b.ts', 'b2.ts', 'b2.ts', 'added']])
    await expect(services.worktrees.merge(parent, 'clash')).rejects.toMatchObject({ name: 'WorktreeConflicts' })
    const skipped = await services.worktrees.merge(parent, 'clash', { skipConflicts: true })
    expect(skipped.skipped).toEqual(['b2.ts'])
    expect(existsSync(join(root, 'a.ts'))).toBe(false)
    expect(readFileSync(join(root, 'a2.ts'), 'utf8')).toBe(lines(10).replace('line 1\n', 'user edit\n'))
    expect(readFileSync(join(root, 'b2.ts'), 'utf8')).toBe('the user made this one\n')
    expect(existsSync(join(root, 'b.ts'))).toBe(true)
  })

  it('counts the same rename made in the main tree as already the same', async () => {
    const services = testServices()
    const root = gitRepo({ 'a.ts': lines(10) })
    const parent = services.projects.openFolder(root)
    const { worktree } = await services.worktrees.create(parent, { name: 'twin' })
    renameSync(join(worktree.path, 'a.ts'), join(worktree.path, 'z.ts'))
    renameSync(join(root, 'a.ts'), join(root, 'z.ts'))
    const preview = await services.worktrees.previewMerge(parent, 'twin')
    expect(preview).toMatchObject({ apply: [], conflicts: [], same: ['z.ts'] })
  })

  it('pairs deleted and added files of identical content in a copy of a non-git folder', async () => {
    const services = testServices()
    const binary = Buffer.from([0, 1, 2, 3, 4, 5])
    const root = writeTree(tempDir(), { 'a.txt': lines(5), 'img.bin': binary, 'edit.txt': lines(5, 'e'), 'stay.txt': 'stay\n' })
    const parent = services.projects.openFolder(root)
    const { worktree } = await services.worktrees.create(parent, { name: 'cp' })
    mkdirSync(join(worktree.path, 'moved'))
    renameSync(join(worktree.path, 'a.txt'), join(worktree.path, 'moved/a.txt'))
    renameSync(join(worktree.path, 'img.bin'), join(worktree.path, 'moved/img.bin'))
    // Renamed and edited: without git's similarity it stays a deletion and an addition.
    renameSync(join(worktree.path, 'edit.txt'), join(worktree.path, 'edited.txt'))
    writeFileSync(join(worktree.path, 'edited.txt'), lines(6, 'e'))

    const diff = await services.worktrees.diff(parent, 'cp')
    expect(diff.files.map((f) => [f.from, f.path, f.status])).toEqual([
      [undefined, 'edit.txt', 'deleted'],
      [undefined, 'edited.txt', 'added'],
      ['a.txt', 'moved/a.txt', 'added'],
      ['img.bin', 'moved/img.bin', 'added'],
    ])
    expect(diff.files[2]).toMatchObject({ similarity: 100, additions: 0, deletions: 0 })
    expect(diff.files[3]).toMatchObject({ similarity: 100, binary: true })

    const preview = await services.worktrees.previewMerge(parent, 'cp')
    expect(preview.apply.filter((a) => a.from !== undefined).map((a) => [a.from, a.path])).toEqual([
      ['a.txt', 'moved/a.txt'],
      ['img.bin', 'moved/img.bin'],
    ])
    const merged = await services.worktrees.merge(parent, 'cp')
    expect(merged.renamed).toBe(2)
    expect(existsSync(join(root, 'a.txt'))).toBe(false)
    expect(existsSync(join(root, 'img.bin'))).toBe(false)
    expect(readFileSync(join(root, 'moved/img.bin')).equals(binary)).toBe(true)
    expect(readFileSync(join(root, 'moved/a.txt'), 'utf8')).toBe(lines(5))

    await services.checkpoints.restore(merged.undoCheckpointId ?? '', { mode: 'code', overwriteConflicts: true, includeUserCreated: true })
    expect(readFileSync(join(root, 'img.bin')).equals(binary)).toBe(true)
    expect(existsSync(join(root, 'moved'))).toBe(false)
  })
})
