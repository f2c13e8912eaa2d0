import { existsSync, readFileSync, readdirSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createEntry, writeTextFile } from '../../../src/main/core/project/fs-ops'
import { IgnoreRules } from '../../../src/main/core/project/ignore-rules'
import { editTool } from '../../../src/main/core/tools/edit'
import { runTool } from '../../../src/main/core/tools/run-tool'
import { writeTool } from '../../../src/main/core/tools/write'
import { atomicTempPath } from '../../../src/main/core/util/atomic-write'
import { tempDir } from '../../support/temp'
import { testContext } from '../../unit/tools/context'

describe('a file whose name is 255 bytes long', () => {
  it('is edited in place: the atomic write’s temp name stays within the limit', async () => {
    const ctx = testContext()
    const name = `${'a'.repeat(251)}.txt`
    writeFileSync(join(ctx.root, name), 'old text\n')
    ctx.fileTimes.recordRead(join(ctx.root, name))
    const edit = await runTool(editTool, { filePath: name, oldString: 'old', newString: 'new' }, ctx)
    expect(edit.error).toBeUndefined()
    expect(readFileSync(join(ctx.root, name), 'utf8')).toBe('new text\n')
    expect(readdirSync(ctx.root)).toEqual([name])
  })

  it('keeps multi-byte names whole when it cuts them', () => {
    const temp = atomicTempPath(`/p/${'é'.repeat(127)}`)
    const base = temp.slice(3)
    expect(Buffer.byteLength(base)).toBeLessThanOrEqual(255)
    expect(base).toMatch(/^é+\.hotaru-\d+-\d+\.tmp$/)
  })
})

describe('a project folder deleted or renamed while open', () => {
  it('is not recreated by the agent’s next write, and the result says why', async () => {
    const ctx = testContext()
    writeFileSync(join(ctx.root, 'a.txt'), 'one\n')
    rmSync(ctx.root, { recursive: true })
    const result = await runTool(writeTool, { filePath: 'src/new.txt', content: 'hello\n' }, ctx)
    expect(result.error?.name).toBe('ProjectMissing')
    expect(result.output).toContain(`The project folder ${ctx.root} no longer exists`)
    expect(existsSync(ctx.root)).toBe(false)
  })

  it('a renamed project gets no phantom at the old path and no stray file at the new one', async () => {
    const ctx = testContext()
    writeFileSync(join(ctx.root, 'a.txt'), 'one\n')
    const moved = `${ctx.root}-moved`
    renameSync(ctx.root, moved)
    try {
      const result = await runTool(writeTool, { filePath: 'a.txt', content: 'two\n' }, ctx)
      expect(result.error?.name).toBe('ProjectMissing')
      expect(existsSync(ctx.root)).toBe(false)
      expect(readFileSync(join(moved, 'a.txt'), 'utf8')).toBe('one\n')
    } finally {
      rmSync(moved, { recursive: true, force: true })
    }
  })

  it('the editor’s save and new file (fs.write, fs.create) do not recreate it either', async () => {
    const root = realpathSync(tempDir('hotaru-anchor-'))
    rmSync(root, { recursive: true })
    await expect(writeTextFile(root, 'src/a.txt', 'x')).rejects.toMatchObject({ name: 'ProjectMissing' })
    expect(() => createEntry(root, 'src/b.txt', 'file', new IgnoreRules(root))).toThrow(/no longer exists/)
    expect(existsSync(root)).toBe(false)
  })

  it('missing folders below an existing project are still created', async () => {
    const ctx = testContext()
    const result = await runTool(writeTool, { filePath: 'deep/er/new.txt', content: 'hi\n' }, ctx)
    expect(result.error).toBeUndefined()
    expect(readFileSync(join(ctx.root, 'deep/er/new.txt'), 'utf8')).toBe('hi\n')
  })
})
