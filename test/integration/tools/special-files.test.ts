import { execFileSync } from 'node:child_process'
import { linkSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { IpcResult } from '@shared/errors'
import { Connection, createAppRouter } from '../../../src/main/ipc'
import { editTool } from '../../../src/main/core/tools/edit'
import { formatLines, formatLinesOf, readTool } from '../../../src/main/core/tools/read'
import { runTool } from '../../../src/main/core/tools/run-tool'
import { writeTool } from '../../../src/main/core/tools/write'
import { open } from 'node:fs/promises'
import { testServices } from '../../support/services'
import { tempDir, writeTree } from '../../support/temp'
import { testContext } from '../../unit/tools/context'

const posix = process.platform !== 'win32'

function mkfifo(path: string): void {
  execFileSync('mkfifo', [path])
}

/** Resolves after a timer turn: proves the event loop was not held while a call ran. */
function loopTurns(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0))
}

describe.runIf(posix)('special files never block', () => {
  it('fs.read and fs.write over IPC refuse a FIFO at once, and the event loop keeps turning', async () => {
    const services = testServices()
    const router = createAppRouter(services)
    const connection = new Connection('ui', () => undefined)
    const root = writeTree(tempDir(), { 'a.txt': 'a' })
    mkfifo(join(root, 'pipe'))
    const opened = (await router.handle(connection, 'project.open', { path: root })) as IpcResult<{ id: string }>
    if (!opened.ok) throw new Error(opened.error.data.message)
    const projectId = opened.value.id
    const [read] = await Promise.all([router.handle(connection, 'fs.read', { projectId, path: 'pipe' }), loopTurns()])
    expect(read).toMatchObject({ ok: false, error: { name: 'NotARegularFile', data: { kind: 'a named pipe (FIFO)' } } })
    const write = await router.handle(connection, 'fs.write', { projectId, path: 'pipe', content: 'x' })
    expect(write).toMatchObject({ ok: false, error: { name: 'NotARegularFile' } })
    expect(statSync(join(root, 'pipe')).isFIFO()).toBe(true)
    const device = await router.handle(connection, 'fs.read', { projectId, path: '../../../../../../../../dev/zero' })
    expect(device.ok).toBe(false)
  })

  it('fs.write through a hard link replaces the project file and leaves the outside file alone', async () => {
    const services = testServices()
    const router = createAppRouter(services)
    const connection = new Connection('ui', () => undefined)
    const root = writeTree(tempDir(), { 'linked.txt': 'original' })
    const outside = join(tempDir(), 'outside.txt')
    linkSync(join(root, 'linked.txt'), outside)
    const opened = (await router.handle(connection, 'project.open', { path: root })) as IpcResult<{ id: string }>
    if (!opened.ok) throw new Error(opened.error.data.message)
    const written = await router.handle(connection, 'fs.write', { projectId: opened.value.id, path: 'linked.txt', content: 'changed' })
    expect(written.ok).toBe(true)
    expect(readFileSync(join(root, 'linked.txt'), 'utf8')).toBe('changed')
    expect(readFileSync(outside, 'utf8')).toBe('original')
    expect(statSync(join(root, 'linked.txt')).ino).not.toBe(statSync(outside).ino)
  })

  it('the agent read, write and edit tools refuse a FIFO without opening it', async () => {
    const ctx = testContext()
    mkfifo(join(ctx.root, 'pipe'))
    const read = await runTool(readTool, { filePath: 'pipe' }, ctx)
    expect(read.output).toMatch(/named pipe \(FIFO\), not a regular file/)
    const write = await runTool(writeTool, { filePath: 'pipe', content: 'x' }, ctx)
    expect(write.output).toMatch(/not a regular file/)
    const edit = await runTool(editTool, { filePath: 'pipe', oldString: 'a', newString: 'b' }, ctx)
    expect(edit.output).toMatch(/not a regular file/)
    expect(statSync(join(ctx.root, 'pipe')).isFIFO()).toBe(true)
    expect(ctx.asks).toEqual([])
  })
})

describe('streamed read', () => {
  it('gives the same numbered lines as reading the whole file', async () => {
    const dir = tempDir()
    const long = 'y'.repeat(5000)
    const cases = ['', '\n', 'one', 'one\n', 'a\r\nb\r\n', `x\n${long}\nz`, Array.from({ length: 5000 }, (_, i) => `line ${i} é`).join('\n')]
    for (const [i, text] of cases.entries()) {
      const file = join(dir, `f${i}.txt`)
      writeFileSync(file, text)
      for (const [offset, limit] of [[1, 2000], [2, 3], [4000, 2000]] as const) {
        const handle = await open(file)
        const streamed = await formatLinesOf(handle, offset, limit, file).then(
          (r) => r,
          (error: unknown) => ({ error: String(error) }),
        )
        await handle.close()
        let whole: unknown
        try {
          whole = formatLines(text, offset, limit, file)
        } catch (error) {
          whole = { error: String(error) }
        }
        expect(streamed, `case ${i} offset ${offset}`).toEqual(whole)
      }
    }
  })
})
