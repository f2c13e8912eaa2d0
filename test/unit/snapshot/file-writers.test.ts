import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { writeNewFiles, type NewFile } from '../../../src/main/core/snapshot/file-writers'
import { ObjectStore, sha256 } from '../../../src/main/core/snapshot/object-store'
import { SnapshotErrorNames } from '../../../src/main/core/snapshot/errors'
import { tempDir } from '../../support/temp'

function filesIn(dir: string, count: number, content: (i: number) => string): NewFile[] {
  return Array.from({ length: count }, (_, i) => ({ path: join(dir, `f${i}.txt`), data: Buffer.from(content(i)), mode: i % 7 === 0 ? 0o777 : 0o666 }))
}

const list = (files: NewFile[]) => ({ count: files.length, sizeOf: (i: number) => (files[i] as NewFile).data?.length ?? 0, read: (i: number) => files[i] as NewFile })

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
      expect(readFileSync(file.path)).toEqual(Buffer.from(file.data ?? []))
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

  it('creates the folders files need below foldersUnder, from several writers at once, and nothing outside it', async () => {
    const dir = tempDir()
    // Neighbouring batches share folders: two writers may create the same one at the same moment.
    const files = Array.from({ length: 900 }, (_, i) => ({ path: join(dir, `src/p${i % 3}/m${Math.floor(i / 50)}/f${i}.txt`), data: Buffer.from(`${i}\n`), mode: 0o666 }))
    files.sort((a, b) => (a.path < b.path ? -1 : 1))
    await writeNewFiles({ ...list(files), foldersUnder: dir }, 3)
    for (const file of files) expect(readFileSync(file.path, 'utf8')).toBe(file.data.toString())
    const outside = [{ path: join(tempDir(), 'elsewhere/x.txt'), data: Buffer.from('x'), mode: 0o666 }]
    await expect(writeNewFiles({ ...list(outside), foldersUnder: dir })).rejects.toMatchObject({ code: 'EINVAL' })
    expect(existsSync(outside[0]!.path)).toBe(false)
  })

  it('reports a folder that is missing', async () => {
    const dir = tempDir()
    mkdirSync(join(dir, 'a'))
    const files = [{ path: join(dir, 'missing/x.txt'), data: Buffer.from('x'), mode: 0o666 }]
    await expect(writeNewFiles(list(files))).rejects.toMatchObject({ code: 'ENOENT' })
    expect(existsSync(join(dir, 'missing'))).toBe(false)
  })

  describe('content read from packs by the writers', () => {
    /** A store holding `count` objects in one pack (compressed when `compress`), and files pointing into it. */
    function packedFiles(count: number, compress: boolean) {
      const store = new ObjectStore(tempDir())
      const contents = Array.from({ length: count }, (_, i) => Buffer.from(`packed file ${i}\n`.repeat(1 + (i % 90))))
      store.beginBatch()
      for (const content of contents) store.put(sha256(content), content)
      store.flush()
      if (compress) store.compressDeferredPack()
      const dir = tempDir()
      const files: NewFile[] = contents.map((content, i) => {
        const hash = sha256(content)
        const at = store.locate(hash)
        if (!at) throw new Error(`object ${i} is not packed`)
        return { path: join(dir, `p${i}.txt`), mode: 0o666, packed: { ...at, hash } }
      })
      return { store, contents, dir, files }
    }

    it.each([false, true])('writes packed content exactly (compressed pack: %s)', async (compress) => {
      const { contents, files } = packedFiles(450, compress)
      const stats = await writeNewFiles({ count: files.length, sizeOf: (i) => (contents[i] as Buffer).length, read: (i) => files[i] as NewFile }, 2)
      files.forEach((file, i) => {
        expect(readFileSync(file.path)).toEqual(contents[i])
        expect(stats[i]?.size).toBe((contents[i] as Buffer).length)
      })
    })

    it('reports an object damaged in its pack and writes nothing of its batch', async () => {
      const { contents, dir, files } = packedFiles(40, false)
      const damaged = files[7]?.packed
      if (!damaged) throw new Error('no packed file')
      const pack = readFileSync(damaged.pack)
      pack[damaged.offset + 3] = (pack[damaged.offset + 3] as number) ^ 0xff
      writeFileSync(damaged.pack, pack)
      const list = { count: files.length, sizeOf: (i: number) => (contents[i] as Buffer).length, read: (i: number) => files[i] as NewFile }
      await expect(writeNewFiles(list, 2)).rejects.toMatchObject({ name: SnapshotErrorNames.Corrupt, message: expect.stringContaining(damaged.hash) as unknown })
      expect(readdirSync(dir)).toEqual([])
    })

    it('reads a pack another process rewrote meanwhile through the store', async () => {
      const { store, contents, files } = packedFiles(40, false)
      store.compressDeferredPack()
      const list = {
        count: files.length,
        sizeOf: (i: number) => (contents[i] as Buffer).length,
        read: (i: number) => files[i] as NewFile,
        load: (i: number) => ({ path: (files[i] as NewFile).path, mode: 0o666, data: store.get(sha256(contents[i] as Buffer)) }),
      }
      await writeNewFiles(list, 2)
      files.forEach((file, i) => expect(readFileSync(file.path)).toEqual(contents[i]))
    })
  })
})
