import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { mergedText } from '../../../src/main/core/worktree/merge-text'
import { gitRepo, runGit } from '../../support/git-repo'
import { testServices } from '../../support/services'
import { tempDir, writeTree } from '../../support/temp'

/** Twenty numbered lines: changes at line 2 and line 18 are far enough apart to be separate hunks. */
const BASE = Array.from({ length: 20 }, (_, i) => `line ${i + 1}\n`).join('')

function edit(text: string, changes: Record<number, string>): string {
  return text
    .split('\n')
    .map((line, i) => changes[i + 1] ?? line)
    .join('\n')
}

/** What `git merge` makes of the same two changes, committed on two branches of a scratch repository. */
function gitMergeOf(ours: string, theirs: string): { clean: boolean; text: string } {
  const repo = gitRepo({ 'f.txt': BASE })
  runGit(repo, ['checkout', '-q', '-b', 'theirs'])
  writeFileSync(join(repo, 'f.txt'), theirs)
  runGit(repo, ['commit', '-qam', 'theirs'])
  runGit(repo, ['checkout', '-q', 'main'])
  writeFileSync(join(repo, 'f.txt'), ours)
  runGit(repo, ['commit', '-qam', 'ours'])
  try {
    runGit(repo, ['merge', '-q', '--no-edit', 'theirs'])
    return { clean: true, text: readFileSync(join(repo, 'f.txt'), 'utf8') }
  } catch {
    // A conflicting merge exits 1: the conflict itself is what the caller compares.
    return { clean: false, text: readFileSync(join(repo, 'f.txt'), 'utf8') }
  }
}

async function worktreeWith(mainText: string, worktreeText: string) {
  const services = testServices()
  const root = gitRepo({ 'f.txt': BASE, 'other.txt': 'o\n' })
  const parent = services.projects.openFolder(root)
  const { worktree } = await services.worktrees.create(parent, { name: 'feat' })
  writeFileSync(join(worktree.path, 'f.txt'), worktreeText)
  writeFileSync(join(root, 'f.txt'), mainText)
  return { services, root, parent, worktree }
}

describe('worktree merge, hunk by hunk (git merge-file)', () => {
  it('merges a file where the main tree made the worktree’s first change and the worktree also a second one, as git merge does', async () => {
    const mainText = edit(BASE, { 2: 'line 2 fixed' })
    const worktreeText = edit(BASE, { 2: 'line 2 fixed', 18: 'line 18 from the worktree' })
    const { services, root, parent } = await worktreeWith(mainText, worktreeText)

    const preview = await services.worktrees.previewMerge(parent, 'feat')
    expect(preview.conflicts).toEqual([])
    expect(preview.merged.map((m) => m.path)).toEqual(['f.txt'])
    expect(preview.merged[0]?.change.diff).toContain('+line 18 from the worktree')

    const result = await services.worktrees.merge(parent, 'feat')
    expect(result).toMatchObject({ written: 1, merged: 1, skipped: [] })
    const expected = gitMergeOf(mainText, worktreeText)
    expect(expected.clean).toBe(true)
    expect(readFileSync(join(root, 'f.txt'), 'utf8')).toBe(expected.text)
    // Merged with the main tree's version of the file: still counts as merged back (remove needs no --force).
    expect((await services.worktrees.list(parent))[0]?.status).toBe('merged')
    await services.worktrees.remove(parent, 'feat')
  })

  it('merges changes to different regions of one file cleanly and keeps both', async () => {
    const mainText = edit(BASE, { 2: 'line 2 by the user' })
    const worktreeText = edit(BASE, { 18: 'line 18 by the agent' })
    const { services, root, parent } = await worktreeWith(mainText, worktreeText)
    const result = await services.worktrees.merge(parent, 'feat')
    expect(result.merged).toBe(1)
    const text = readFileSync(join(root, 'f.txt'), 'utf8')
    expect(text).toContain('line 2 by the user\n')
    expect(text).toContain('line 18 by the agent\n')
    expect(text).toBe(gitMergeOf(mainText, worktreeText).text)
    // The main tree changing the merged file again makes the worktree unmerged.
    writeFileSync(join(root, 'f.txt'), `${text}more\n`)
    expect((await services.worktrees.list(parent))[0]?.status).toBe('idle')
  })

  it('keeps overlapping changes as a conflict with its regions, and writes what the user resolved', async () => {
    const mainText = edit(BASE, { 2: 'line 2 by the user', 10: 'line 10 by the user' })
    const worktreeText = edit(BASE, { 2: 'line 2 by the agent', 18: 'line 18 by the agent' })
    const { services, root, parent } = await worktreeWith(mainText, worktreeText)
    expect(gitMergeOf(mainText, worktreeText).clean).toBe(false)

    const preview = await services.worktrees.previewMerge(parent, 'feat')
    expect(preview.merged).toEqual([])
    expect(preview.conflicts.map((c) => [c.path, c.hunks])).toEqual([['f.txt', 1]])

    const file = await services.worktrees.mergeFile(parent, 'feat', 'f.txt')
    expect(file.current).toBe(mainText)
    expect(file.incoming).toBe(worktreeText)
    const conflicts = file.regions.filter((r) => r.kind === 'conflict')
    expect(conflicts).toEqual([{ kind: 'conflict', current: 'line 2 by the user\n', base: 'line 2\n', incoming: 'line 2 by the agent\n' }])
    // Outside the conflict both sides' changes are already in.
    const takeIncoming = mergedText(file.regions, (r) => r.incoming)
    expect(takeIncoming).toContain('line 10 by the user\n')
    expect(takeIncoming).toContain('line 18 by the agent\n')

    await expect(services.worktrees.merge(parent, 'feat')).rejects.toMatchObject({ name: 'WorktreeConflicts' })
    expect(readFileSync(join(root, 'f.txt'), 'utf8')).toBe(mainText)
    const resolved = mergedText(file.regions, (r) => r.current + r.incoming)
    const result = await services.worktrees.merge(parent, 'feat', { resolutions: [{ path: 'f.txt', content: resolved }] })
    expect(result.skipped).toEqual([])
    expect(readFileSync(join(root, 'f.txt'), 'utf8')).toBe(resolved)
    expect(readFileSync(join(root, 'other.txt'), 'utf8')).toBe('o\n')
    expect((await services.worktrees.list(parent))[0]?.status).toBe('merged')
  })

  it('takes one side of a conflict as the user chose, and refuses a resolution for a file that does not conflict', async () => {
    const mainText = edit(BASE, { 2: 'line 2 by the user' })
    const worktreeText = edit(BASE, { 2: 'line 2 by the agent' })
    const { services, root, parent } = await worktreeWith(mainText, worktreeText)
    await expect(services.worktrees.merge(parent, 'feat', { resolutions: [{ path: 'other.txt', take: 'worktree' }] })).rejects.toMatchObject({
      name: 'WorktreeConflicts',
    })
    await services.worktrees.merge(parent, 'feat', { resolutions: [{ path: 'f.txt', take: 'main' }] })
    expect(readFileSync(join(root, 'f.txt'), 'utf8')).toBe(mainText)
    // Keeping the main tree's version was the user's decision: the worktree counts as merged back.
    expect((await services.worktrees.list(parent))[0]?.status).toBe('merged')
    const again = await services.worktrees.merge(parent, 'feat', { resolutions: [{ path: 'f.txt', take: 'worktree' }] })
    expect(again.written).toBe(1)
    expect(readFileSync(join(root, 'f.txt'), 'utf8')).toBe(worktreeText)
  })

  it('merges a non-git copy hunk by hunk too', async () => {
    const services = testServices()
    const root = writeTree(tempDir(), { 'f.txt': BASE })
    const parent = services.projects.openFolder(root)
    const { worktree } = await services.worktrees.create(parent, { name: 'copy1' })
    writeFileSync(join(worktree.path, 'f.txt'), edit(BASE, { 18: 'line 18 by the agent' }))
    writeFileSync(join(root, 'f.txt'), edit(BASE, { 2: 'line 2 by the user' }))
    const result = await services.worktrees.merge(parent, 'copy1')
    expect(result.merged).toBe(1)
    expect(readFileSync(join(root, 'f.txt'), 'utf8')).toBe(edit(BASE, { 2: 'line 2 by the user', 18: 'line 18 by the agent' }))
  })
})
