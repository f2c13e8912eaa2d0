import { existsSync, lstatSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { writeNewFiles, type NewFile } from '../../../src/main/core/snapshot/file-writers'
import { tempDir } from '../../support/temp'

function filesIn(dir: string, count: number, content: (i: number) => string): NewFile[] {
  return Array.from({ length: count }, (_, i) => ({ path: join(dir, `f${i}.txt`), data: Buffer.from(content(i)), mode: i % 7 === 0 ? 0o777 : 0o666 }))
}

const list = (files: NewFile[]) => ({ count: files.length, sizeOf: (i: number) => (files[i] as NewFile).data.length, read: (i: number) => files[i] as NewFile })

describe('writeNewFiles', () => {
  it('writes every file with its content and exec bit, and returns each one’s stat in order', async () => {
    const dir = tempDir()
    // More files than one batch, of different sizes, from views into one shared buffer.
    const shared = Buffer.from('x'.repeat(5000))
    const files = filesIn(dir, 1234, (i) => `file ${i}\n`.repeat(i % 13))
    files[5] = { ...files[5]!, data: shared.subarray(10, 20) }
    const stats = await writeNewFiles(list(files), 3)
    expect(stats).toHaveLength(files.length)
    for (const [i, file] of files.entries()) {
      expect(readFileSync(file.path)).toEqual(Buffer.from(file.data))
      const st = lstatSync(file.path, { bigint: true })
      expect(stats[i]).toEqual({ size: Number(st.size), mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs, ino: st.ino, mode: Number(st.mode) })
      expect(Number(st.mode) & 0o100).toBe(i % 7 === 0 ? 0o100 : 0)
    }
  })

  it('never writes over a file that exists, and says which one', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'f3.txt'), 'the user’s\n')
    await expect(writeNewFiles(list(filesIn(dir, 10, (i) => `${i}\n`)), 2)).rejects.toMatchObject({ code: 'EEXIST', path: join(dir, 'f3.txt') })
    expect(readFileSync(join(dir, 'f3.txt'), 'utf8')).toBe('the user’s\n')
  })

  it('reports a folder that is missing', async () => {
    const dir = tempDir()
    mkdirSync(join(dir, 'a'))
    const files = [{ path: join(dir, 'missing/x.txt'), data: Buffer.from('x'), mode: 0o666 }]
    await expect(writeNewFiles(list(files))).rejects.toMatchObject({ code: 'ENOENT' })
    expect(existsSync(join(dir, 'missing'))).toBe(false)
  })
})
