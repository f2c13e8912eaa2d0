import { chmodSync, existsSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { editTool } from '../../../src/main/core/tools/edit'
import { multieditTool } from '../../../src/main/core/tools/multiedit'
import { readTool } from '../../../src/main/core/tools/read'
import { runTool } from '../../../src/main/core/tools/run-tool'
import { writeTool } from '../../../src/main/core/tools/write'
import { JPEG_40x30, pngImage } from '../../support/images'
import { tempDir, writeTree } from '../../support/temp'
import { testContext } from '../../unit/tools/context'

describe('read', () => {
  it('returns numbered lines with offset/limit and records the read', async () => {
    const ctx = testContext()
    writeTree(ctx.root, { 'a.txt': Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') })
    const result = await runTool(readTool, { filePath: 'a.txt', offset: 3, limit: 2 }, ctx)
    expect(result.error).toBeUndefined()
    expect(result.output).toContain('     3\tline 3\n     4\tline 4')
    expect(result.output).toContain('Use offset=5')
    expect(ctx.fileTimes.wasRead(join(ctx.root, 'a.txt'))).toBe(true)
  })

  it('refuses binary files, hints on directories and missing files', async () => {
    const ctx = testContext()
    writeTree(ctx.root, { 'bin.dat': Buffer.from([1, 0, 2, 3]), 'src/index.ts': 'x', 'src/main.ts': 'y' })
    expect((await runTool(readTool, { filePath: 'bin.dat' }, ctx)).output).toMatch(/binary/)
    expect((await runTool(readTool, { filePath: 'src' }, ctx)).output).toMatch(/directory.*list tool/s)
    expect((await runTool(readTool, { filePath: 'src/index.tsx' }, ctx)).output).toMatch(/not found.*src\/index\.ts/s)
  })

  it('returns images as attachments, typed by their bytes', async () => {
    const ctx = testContext()
    const png = pngImage(64, 48)
    writeTree(ctx.root, { 'img.png': png, 'photo.png': JPEG_40x30, screenshot: png, 'fake.png': 'not a picture' })
    const result = await runTool(readTool, { filePath: 'img.png' }, ctx)
    expect(result.attachments?.[0]).toMatchObject({ type: 'image', mediaType: 'image/png', data: png.toString('base64'), filename: 'img.png' })
    expect(result.output).toContain('64×48 px')
    // A JPEG named .png is sent as the JPEG it is (the APIs refuse a mismatched media type).
    expect((await runTool(readTool, { filePath: 'photo.png' }, ctx)).attachments?.[0]).toMatchObject({ mediaType: 'image/jpeg' })
    expect((await runTool(readTool, { filePath: 'screenshot' }, ctx)).attachments?.[0]).toMatchObject({ mediaType: 'image/png' })
    expect((await runTool(readTool, { filePath: 'fake.png' }, ctx)).output).toContain('named like an image but is not a PNG, JPEG, GIF or WebP file')
  })

  it('asks read permission with the path, and external_directory outside the project', async () => {
    const ctx = testContext()
    const outside = tempDir('hotaru-outside-')
    writeTree(outside, { 'o.txt': 'out' })
    writeTree(ctx.root, { '.env': 'KEY=1' })
    await runTool(readTool, { filePath: '.env' }, ctx)
    await runTool(readTool, { filePath: join(outside, 'o.txt') }, ctx)
    expect(ctx.asks.map((a) => [a.permission, a.patterns[0]])).toEqual([
      ['read', '.env'],
      ['external_directory', `${join(outside)}/*`],
      ['read', join(outside, 'o.txt')],
    ])
  })

  it('turns a rejected ask into a result, never a throw', async () => {
    const ctx = testContext(undefined, {
      async ask() {
        const { PermissionRejectedError } = await import('../../../src/main/core/permission/errors')
        throw new PermissionRejectedError('perm_1', 'not that file')
      },
    })
    writeTree(ctx.root, { 'a.txt': 'x' })
    const result = await runTool(readTool, { filePath: 'a.txt' }, ctx)
    expect(result.error).toMatchObject({ name: 'PermissionRejected', feedback: 'not that file' })
    expect(result.output).toContain('not that file')
  })
})

describe('write', () => {
  it('creates files (and folders) atomically with a diff', async () => {
    const ctx = testContext()
    const result = await runTool(writeTool, { filePath: 'deep/new.txt', content: 'hello\n' }, ctx)
    expect(result.error).toBeUndefined()
    expect(readFileSync(join(ctx.root, 'deep/new.txt'), 'utf8')).toBe('hello\n')
    expect(result.metadata.diff).toContain('+hello')
    expect(ctx.asks[0]).toMatchObject({ permission: 'edit', patterns: ['deep/new.txt'], always: ['*'] })
  })

  it('refuses to overwrite an unread file, keeps mode and CRLF after a read', async () => {
    const ctx = testContext()
    writeTree(ctx.root, { 'run.sh': 'echo a\r\necho b\r\n' })
    chmodSync(join(ctx.root, 'run.sh'), 0o755)
    const refused = await runTool(writeTool, { filePath: 'run.sh', content: 'x' }, ctx)
    expect(refused.output).toMatch(/must read "run.sh"/)
    await runTool(readTool, { filePath: 'run.sh' }, ctx)
    const ok = await runTool(writeTool, { filePath: 'run.sh', content: 'echo c\necho d\n' }, ctx)
    expect(ok.error).toBeUndefined()
    expect(readFileSync(join(ctx.root, 'run.sh'), 'utf8')).toBe('echo c\r\necho d\r\n')
    expect(statSync(join(ctx.root, 'run.sh')).mode & 0o777).toBe(0o755)
  })

  it('writes through a symlink inside the project to the real file', async () => {
    const ctx = testContext()
    writeTree(ctx.root, { 'real.txt': 'a\n' })
    symlinkSync(join(ctx.root, 'real.txt'), join(ctx.root, 'link.txt'))
    await runTool(readTool, { filePath: 'link.txt' }, ctx)
    await runTool(writeTool, { filePath: 'link.txt', content: 'b\n' }, ctx)
    expect(readFileSync(join(ctx.root, 'real.txt'), 'utf8')).toBe('b\n')
  })
})

describe('edit', () => {
  it('edits after a read and returns a unified diff', async () => {
    const ctx = testContext()
    writeTree(ctx.root, { 'a.ts': 'const a = 1\nconst b = 2\n' })
    await runTool(readTool, { filePath: 'a.ts' }, ctx)
    const result = await runTool(editTool, { filePath: 'a.ts', oldString: 'const b = 2', newString: 'const b = 3' }, ctx)
    expect(result.error).toBeUndefined()
    expect(readFileSync(join(ctx.root, 'a.ts'), 'utf8')).toBe('const a = 1\nconst b = 3\n')
    expect(result.metadata).toMatchObject({ additions: 1, deletions: 1, matcher: 'exact' })
    expect(result.metadata.diff).toMatch(/-const b = 2\n\+const b = 3/)
    // a second edit needs no new read: our own write is the session's view
    const again = await runTool(editTool, { filePath: 'a.ts', oldString: 'const a = 1', newString: 'const a = 0' }, ctx)
    expect(again.error).toBeUndefined()
  })

  it('refuses an unread file and leaves it untouched', async () => {
    const ctx = testContext()
    writeTree(ctx.root, { 'a.ts': 'x\n' })
    const result = await runTool(editTool, { filePath: 'a.ts', oldString: 'x', newString: 'y' }, ctx)
    expect(result.error?.name).toBe('ToolError')
    expect(result.output).toMatch(/must read "a.ts".*before editing/)
    expect(readFileSync(join(ctx.root, 'a.ts'), 'utf8')).toBe('x\n')
  })

  it('refuses a file modified since it was read', async () => {
    const ctx = testContext()
    writeTree(ctx.root, { 'a.ts': 'x\n' })
    await runTool(readTool, { filePath: 'a.ts' }, ctx)
    writeFileSync(join(ctx.root, 'a.ts'), 'x changed\n')
    const future = new Date(Date.now() + 5000)
    utimesSync(join(ctx.root, 'a.ts'), future, future)
    const result = await runTool(editTool, { filePath: 'a.ts', oldString: 'x', newString: 'y' }, ctx)
    expect(result.output).toMatch(/modified since you last read it.*Re-read/s)
    expect(readFileSync(join(ctx.root, 'a.ts'), 'utf8')).toBe('x changed\n')
  })

  it('refuses an ambiguous match and leaves the file untouched', async () => {
    const ctx = testContext()
    writeTree(ctx.root, { 'a.ts': 'x()\nx()\n' })
    await runTool(readTool, { filePath: 'a.ts' }, ctx)
    const result = await runTool(editTool, { filePath: 'a.ts', oldString: 'x()', newString: 'y()' }, ctx)
    expect(result.output).toMatch(/matches 2 places/)
    expect(readFileSync(join(ctx.root, 'a.ts'), 'utf8')).toBe('x()\nx()\n')
  })

  it('keeps CRLF and a missing final newline', async () => {
    const ctx = testContext()
    writeTree(ctx.root, { 'w.txt': 'a\r\nb\r\nc' })
    await runTool(readTool, { filePath: 'w.txt' }, ctx)
    await runTool(editTool, { filePath: 'w.txt', oldString: 'b\nc', newString: 'B\nC' }, ctx)
    expect(readFileSync(join(ctx.root, 'w.txt'), 'utf8')).toBe('a\r\nB\r\nC')
  })

  it('answers bad arguments with the zod issues and the schema', async () => {
    const ctx = testContext()
    const result = await runTool(editTool, { filePath: 3, oldString: 'x' }, ctx)
    expect(result.error?.name).toBe('InvalidToolArguments')
    expect(result.output).toMatch(/Invalid arguments for tool "edit"/)
    expect(result.output).toMatch(/- filePath: .*string/)
    expect(result.output).toMatch(/- newString: /)
    expect(result.output).toMatch(/JSON schema/)
  })
})

describe('multiedit', () => {
  it('applies all edits or none', async () => {
    const ctx = testContext()
    writeTree(ctx.root, { 'm.ts': 'a\nb\nc\n' })
    await runTool(readTool, { filePath: 'm.ts' }, ctx)
    const failed = await runTool(multieditTool, { filePath: 'm.ts', edits: [{ oldString: 'a', newString: 'A' }, { oldString: 'zzz', newString: 'Z' }] }, ctx)
    expect(failed.output).toMatch(/Edit 2 of 2 failed, so no edit was applied/)
    expect(readFileSync(join(ctx.root, 'm.ts'), 'utf8')).toBe('a\nb\nc\n')
    const ok = await runTool(multieditTool, { filePath: 'm.ts', edits: [{ oldString: 'a', newString: 'A' }, { oldString: 'A\nb', newString: 'A\nB' }] }, ctx)
    expect(ok.error).toBeUndefined()
    expect(readFileSync(join(ctx.root, 'm.ts'), 'utf8')).toBe('A\nB\nc\n')
    expect(ok.metadata.diff).toContain('+B')
    expect(existsSync(join(ctx.root, 'm.ts'))).toBe(true)
  })
})

describe('output truncation', () => {
  it('keeps the head and saves the whole output for read with offsets', async () => {
    const ctx = testContext()
    const lines = Array.from({ length: 5000 }, (_, i) => `row ${i}`).join('\n')
    writeTree(ctx.root, { 'big.txt': lines })
    const result = await runTool(readTool, { filePath: 'big.txt', limit: 5000 }, ctx, { limits: { maxLines: 100, maxBytes: 50 * 1024 } })
    expect(result.metadata.truncated).toBe(true)
    const saved = result.metadata.outputPath as string
    expect(result.output).toContain(saved)
    expect(result.output).toMatch(/read tool on that path with offset\/limit/)
    const again = await runTool(readTool, { filePath: saved, offset: 3000, limit: 1 }, ctx)
    expect(again.output).toMatch(/row 2999/)
    expect(ctx.asks.some((a) => a.permission === 'external_directory')).toBe(false)
  })
})
