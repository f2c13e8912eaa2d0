import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startFakeLlm, type FakeLlm } from '../../fixtures/fake-llm'
import { fakeProviderEnv, runHotaru } from '../../support/cli'
import { tempDir, writeTree } from '../../support/temp'
import { testContext } from '../../unit/tools/context'
import { editTool } from '../../../src/main/core/tools/edit'
import { multieditTool } from '../../../src/main/core/tools/multiedit'
import { readTool } from '../../../src/main/core/tools/read'
import { runTool } from '../../../src/main/core/tools/run-tool'
import { writeTool } from '../../../src/main/core/tools/write'
import { applyPatchTool } from '../../../src/main/core/tools/apply-patch'

const read = (root: string, path: string): string => readFileSync(join(root, path), 'utf8')

describe('edit semantics', () => {
  it('two edits of one file started together both apply, the second on what the first wrote', async () => {
    const ctx = testContext()
    writeTree(ctx.root, { 'a.ts': 'const a = 1\nconst b = 2\nconst c = 3\n' })
    await runTool(readTool, { filePath: 'a.ts' }, ctx)
    const results = await Promise.all([
      runTool(editTool, { filePath: 'a.ts', oldString: 'const a = 1', newString: 'const a = 10' }, ctx),
      runTool(editTool, { filePath: 'a.ts', oldString: 'const c = 3', newString: 'const c = 30' }, ctx),
      runTool(multieditTool, { filePath: 'a.ts', edits: [{ oldString: 'const b = 2', newString: 'const b = 20' }] }, ctx),
      runTool(applyPatchTool, { patchText: '*** Begin Patch\n*** Update File: a.ts\n@@\n+const d = 4\n*** End Patch' }, ctx),
    ])
    expect(results.map((r) => r.error)).toEqual([undefined, undefined, undefined, undefined])
    expect(read(ctx.root, 'a.ts')).toBe('const a = 10\nconst b = 20\nconst c = 30\nconst d = 4\n')
  })

  it('accepts the argument names models commonly send', async () => {
    const ctx = testContext()
    writeTree(ctx.root, { 'a.txt': 'x x\n', 'b.txt': 'b\n' })
    await runTool(readTool, { filePath: 'a.txt' }, ctx)
    await runTool(readTool, { filePath: 'b.txt' }, ctx)
    const edit = await runTool(editTool, { file_path: 'a.txt', old_string: 'x', new_string: 'y', replace_all: true }, ctx)
    expect(edit.error).toBeUndefined()
    expect(read(ctx.root, 'a.txt')).toBe('y y\n')
    expect((await runTool(writeTool, { file_path: 'c.txt', content: 'c\n' }, ctx)).error).toBeUndefined()
    expect(read(ctx.root, 'c.txt')).toBe('c\n')
    expect((await runTool(multieditTool, { file_path: 'b.txt', edits: [{ oldString: 'b', newString: 'B' }] }, ctx)).error).toBeUndefined()
    expect(read(ctx.root, 'b.txt')).toBe('B\n')
    // Our own name wins when both are given.
    const both = await runTool(editTool, { filePath: 'a.txt', file_path: 'nope.txt', oldString: 'y y', newString: 'z' }, ctx)
    expect(both.error).toBeUndefined()
    expect(read(ctx.root, 'a.txt')).toBe('z\n')
  })

  it('keeps a BOM and does not show it as a change', async () => {
    const ctx = testContext()
    writeTree(ctx.root, { 'bom.txt': '\uFEFFfirst\nsecond\n' })
    await runTool(readTool, { filePath: 'bom.txt' }, ctx)
    const result = await runTool(editTool, { filePath: 'bom.txt', oldString: '  first', newString: 'FIRST' }, ctx)
    expect(result.error).toBeUndefined()
    expect(read(ctx.root, 'bom.txt')).toBe('\uFEFFFIRST\nsecond\n')
    const diff = String(result.metadata.diff)
    expect(diff).not.toContain('\uFEFF')
    expect(diff).toContain('-first\n+FIRST')
  })

  it('keeps the refusals: ambiguous matches, empty oldString, moves onto existing files', async () => {
    const ctx = testContext()
    writeTree(ctx.root, { 'a.txt': 'x\nx\n', 'b.txt': 'b\n', 'c.txt': 'c\n' })
    await runTool(readTool, { filePath: 'a.txt' }, ctx)
    expect((await runTool(editTool, { filePath: 'a.txt', oldString: 'x', newString: 'y' }, ctx)).output).toMatch(/matches 2 places/)
    expect((await runTool(editTool, { filePath: 'a.txt', oldString: '', newString: 'y' }, ctx)).output).toMatch(/oldString is empty/)
    const move = '*** Begin Patch\n*** Update File: b.txt\n*** Move to: c.txt\n@@\n-b\n+B\n*** End Patch'
    expect((await runTool(applyPatchTool, { patchText: move }, ctx)).output).toMatch(/the target exists/)
    expect(read(ctx.root, 'a.txt')).toBe('x\nx\n')
    expect(read(ctx.root, 'c.txt')).toBe('c\n')
  })
})

describe('edits of one file in one step through the real loop', () => {
  const servers: FakeLlm[] = []
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.close()
  })

  it('applies both', async () => {
    const server = await startFakeLlm({
      turns: [
        { toolCalls: [{ name: 'read', args: { filePath: 'n.txt' } }] },
        {
          toolCalls: [
            { name: 'edit', args: { file_path: 'n.txt', old_string: 'one', new_string: 'ONE' } },
            { name: 'edit', args: { filePath: 'n.txt', oldString: 'two', newString: 'TWO' } },
          ],
        },
        { text: 'Done.' },
      ],
    })
    servers.push(server)
    const project = writeTree(tempDir(), { 'n.txt': 'one\ntwo\n' })
    const result = await runHotaru(['run', '--dir', project, '--yes', 'edit', 'it'], fakeProviderEnv(server, tempDir()))
    expect(result.code, result.stderr).toBe(0)
    expect(read(project, 'n.txt')).toBe('ONE\nTWO\n')
    expect(JSON.stringify(server.requests[2]?.body)).not.toMatch(/changed on disk/)
  })
})
