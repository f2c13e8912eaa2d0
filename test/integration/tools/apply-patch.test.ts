import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { applyPatchTool } from '../../../src/main/core/tools/apply-patch'
import { runTool } from '../../../src/main/core/tools/run-tool'
import { writeTree } from '../../support/temp'
import { testContext } from '../../unit/tools/context'

const read = (root: string, path: string): string => readFileSync(join(root, path), 'utf8')

describe('apply_patch', () => {
  it('applies the envelope format: add, update with anchors, move, delete', async () => {
    const ctx = testContext()
    writeTree(ctx.root, {
      'src/math.ts': 'export function add(a, b) {\n  return a + b\n}\n\nexport function sub(a, b) {\n  return a - b\n}\n',
      'old.txt': 'bye\n',
      'notes.md': 'title\n',
    })
    const patch = [
      '*** Begin Patch',
      '*** Add File: src/new.ts',
      '+export const x = 1',
      '*** Update File: src/math.ts',
      '@@ export function sub(a, b) {',
      '-  return a - b',
      '+  return a - b // checked',
      '*** Update File: notes.md',
      '*** Move to: docs/notes.md',
      '@@',
      '-title',
      '+Title',
      '*** Delete File: old.txt',
      '*** End Patch',
    ].join('\n')
    const result = await runTool(applyPatchTool, { patchText: patch }, ctx)
    expect(result.error).toBeUndefined()
    expect(read(ctx.root, 'src/new.ts')).toBe('export const x = 1\n')
    expect(read(ctx.root, 'src/math.ts')).toContain('return a - b // checked')
    expect(read(ctx.root, 'src/math.ts')).toContain('return a + b\n')
    expect(read(ctx.root, 'docs/notes.md')).toBe('Title\n')
    expect(existsSync(join(ctx.root, 'notes.md'))).toBe(false)
    expect(existsSync(join(ctx.root, 'old.txt'))).toBe(false)
    expect(result.output).toMatch(/A src\/new\.ts\nM src\/math\.ts\nR docs\/notes\.md\nD old\.txt/)
    expect(result.metadata.diff).toContain('+  return a - b // checked')
    expect(ctx.asks).toHaveLength(1)
    expect(ctx.asks[0]?.permission).toBe('edit')
  })

  it('applies a unified diff and keeps CRLF', async () => {
    const ctx = testContext()
    writeTree(ctx.root, { 'a.txt': 'one\r\ntwo\r\nthree\r\n', 'gone.txt': 'x\n' })
    const diff = [
      '--- a/a.txt',
      '+++ b/a.txt',
      '@@ -1,3 +1,3 @@',
      ' one',
      '-two',
      '+TWO',
      ' three',
      '--- /dev/null',
      '+++ b/added.txt',
      '@@ -0,0 +1,2 @@',
      '+hello',
      '+world',
      '--- a/gone.txt',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-x',
      '',
    ].join('\n')
    const result = await runTool(applyPatchTool, { patchText: diff }, ctx)
    expect(result.error).toBeUndefined()
    expect(read(ctx.root, 'a.txt')).toBe('one\r\nTWO\r\nthree\r\n')
    expect(read(ctx.root, 'added.txt')).toBe('hello\nworld\n')
    expect(existsSync(join(ctx.root, 'gone.txt'))).toBe(false)
  })

  it('changes nothing when one operation does not apply', async () => {
    const ctx = testContext()
    writeTree(ctx.root, { 'a.txt': 'a\n', 'b.txt': 'b\n' })
    const patch = '*** Begin Patch\n*** Update File: a.txt\n-a\n+A\n*** Update File: b.txt\n-nope\n+B\n*** End Patch'
    const result = await runTool(applyPatchTool, { patchText: patch }, ctx)
    expect(result.output).toMatch(/does not match the file/)
    expect(read(ctx.root, 'a.txt')).toBe('a\n')
    expect(read(ctx.root, 'b.txt')).toBe('b\n')
  })

  it('tolerates trailing whitespace and typographic quotes in context', async () => {
    const ctx = testContext()
    writeTree(ctx.root, { 'q.ts': 'say("hi")   \nnext\n' })
    const patch = '*** Begin Patch\n*** Update File: q.ts\n-say(\u201chi\u201d)\n+say("hello")\n next\n*** End Patch'
    const result = await runTool(applyPatchTool, { patchText: patch }, ctx)
    expect(result.error).toBeUndefined()
    expect(read(ctx.root, 'q.ts')).toBe('say("hello")\nnext\n')
  })

  it('refuses adding an existing file and unknown formats', async () => {
    const ctx = testContext()
    writeTree(ctx.root, { 'a.txt': 'a\n' })
    expect((await runTool(applyPatchTool, { patchText: '*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch' }, ctx)).output).toMatch(/already exists/)
    expect((await runTool(applyPatchTool, { patchText: 'just text' }, ctx)).output).toMatch(/neither/)
  })
})
