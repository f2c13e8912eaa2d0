import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { FakeTurn } from '../../fixtures/fake-llm'
import { fakeLlm } from '../../support/fake-llms'
import { fakeProviderEnv, runHotaru } from '../../support/cli'
import { gitRepo } from '../../support/git-repo'
import { tempDir, writeTree } from '../../support/temp'

/** A turn that runs one shell command in the worktree, then says it is done. */
function shell(command: string): FakeTurn[] {
  return [{ toolCalls: [{ name: 'bash', args: { command, description: 'move files' } }] }, { text: 'moved' }]
}

const lines = (n: number): string => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n'

describe('hotaru worktrees diff and merge with renamed files', () => {
  it('prints a rename of a git worktree as "old → new" and merges it as one', { timeout: 120_000 }, async () => {
    const dataDir = tempDir()
    const root = gitRepo({ 'util.ts': lines(12), 'notes.md': 'notes\n' })
    const server = await fakeLlm(shell(`mkdir lib && git mv util.ts lib/util.ts && sed -i 's/^line 2$/line two/' lib/util.ts && mv notes.md NOTES.md`))
    const env = fakeProviderEnv(server, dataDir)
    const run = await runHotaru(['run', '--dir', root, '-w', 'mv', '--yes', 'move them'], env)
    expect(run.code, run.stderr).toBe(0)

    const diff = await runHotaru(['worktrees', 'diff', 'mv', '--dir', root], env)
    expect(diff.code, diff.stderr).toBe(0)
    expect(diff.stdout).toContain('R notes.md → NOTES.md  renamed, content unchanged')
    expect(diff.stdout).toMatch(/^R util\.ts → lib\/util\.ts {2}renamed, \d+% similar, \+1 -1$/m)
    expect(diff.stdout).toContain('--- a/util.ts')
    expect(diff.stdout).toContain('+line two')
    expect(diff.stdout).not.toMatch(/^D /m)

    const json = JSON.parse((await runHotaru(['worktrees', 'diff', 'mv', '--dir', root, '--json'], env)).stdout) as { files: Array<Record<string, unknown>> }
    expect(json.files).toEqual([
      expect.objectContaining({ path: 'NOTES.md', from: 'notes.md', status: 'added', similarity: 100 }),
      expect.objectContaining({ path: 'lib/util.ts', from: 'util.ts', status: 'added' }),
    ])

    const merged = await runHotaru(['worktrees', 'merge', 'mv', '--dir', root, '--yes'], env)
    expect(merged.code, merged.stderr).toBe(0)
    expect(merged.stdout).toContain('rename   notes.md → NOTES.md  content unchanged')
    expect(merged.stdout).toContain('Merged: 2 written, 2 deleted (2 renamed).')
    expect(existsSync(join(root, 'util.ts'))).toBe(false)
    expect(readFileSync(join(root, 'lib/util.ts'), 'utf8')).toContain('line two')
    expect(readFileSync(join(root, 'NOTES.md'), 'utf8')).toBe('notes\n')
  })

  it('pairs an exact rename in a copy of a non-git folder and reports a clash at the new path', { timeout: 120_000 }, async () => {
    const dataDir = tempDir()
    const root = writeTree(tempDir(), { 'a.txt': lines(3) })
    const server = await fakeLlm(shell('mv a.txt b.txt'))
    const env = fakeProviderEnv(server, dataDir)
    const run = await runHotaru(['run', '--dir', root, '-w', 'cp', '--yes', 'rename it'], env)
    expect(run.code, run.stderr).toBe(0)
    const diff = await runHotaru(['worktrees', 'diff', 'cp', '--dir', root], env)
    expect(diff.stdout).toContain('R a.txt → b.txt  renamed, content unchanged')

    writeTree(root, { 'b.txt': 'the user’s own b\n' })
    const blocked = await runHotaru(['worktrees', 'merge', 'cp', '--dir', root, '--yes', '--json'], env)
    expect(blocked.code).toBe(1)
    const preview = (JSON.parse(blocked.stdout) as { preview: { conflicts: Array<{ path: string; worktree: { from?: string }; main: { status: string } }> } }).preview
    expect(preview.conflicts).toEqual([expect.objectContaining({ path: 'b.txt', worktree: expect.objectContaining({ from: 'a.txt' }), main: expect.objectContaining({ status: 'added' }) })])
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe(lines(3))
  })
})
