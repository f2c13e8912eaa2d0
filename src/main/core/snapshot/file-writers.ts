import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import { OBJECT_ENCODING } from './object-store'
import { SnapshotErrorNames, snapshotError } from './errors'
import type { StatSig } from './tree-state'

/** Where a stored object sits in a pack: the writer reads, checks and decodes it itself. */
export interface PackedContent {
  /** Absolute path of the pack file. */
  pack: string
  offset: number
  length: number
  /** sha256 of the raw content, checked before anything is written. */
  hash: string
}

/** One new file: its absolute path, mode and content (its bytes, or where they sit in a pack). */
export interface NewFile {
  path: string
  mode: number
  data?: Uint8Array
  packed?: PackedContent
}

/** The files to write, read one batch at a time (content is loaded only when its batch goes out). */
export interface NewFiles {
  count: number
  /** Content size of file `i`, for sizing batches before reading it. */
  sizeOf(i: number): number
  read(i: number): NewFile
  /** File `i` with its bytes, for when its pack went away (another process rewrote it) before a writer read it. */
  load?(i: number): NewFile
  /**
   * An existing folder (absolute) below which the writers create the folders files need as they go,
   * so folder creation is spread over the writer threads too; without it a missing folder is an error.
   */
  foldersUnder?: string
}

/** What a written file looks like on disk afterwards (its stat signature), for a stat index. */
export type WrittenStat = StatSig

/**
 * The writers' code, run from source text so it needs no file of its own in the bundle or the
 * app archive. Each batch is loaded first: packed content is read with one read per run of
 * neighbouring objects in a pack, decoded and checked against its hash, so a damaged object
 * fails the batch before any of it is written. Then each file is created (`wx`: never over an
 * existing file; its folder first when `foldersUnder` is given), written and stat'ed with
 * synchronous calls, one thread per writer, no hand-off to libuv's pool per call.
 */
const WRITER_SOURCE = `
const { parentPort } = require('node:worker_threads')
const fs = require('node:fs')
const { createHash } = require('node:crypto')
const { brotliDecompressSync } = require('node:zlib')
const RAW = ${OBJECT_ENCODING.raw}
const BROTLI = ${OBJECT_ENCODING.brotli}
/** Objects of one pack closer than this are read together, the gap read and dropped. */
const MAX_GAP = 64 * 1024

function readRange(fd, position, length, pack) {
  const out = Buffer.allocUnsafe(length)
  let done = 0
  while (done < length) {
    const read = fs.readSync(fd, out, done, length - done, position + done)
    if (read === 0) throw Object.assign(new Error('pack ' + pack + ' is truncated'), { code: 'CORRUPT', path: pack })
    done += read
  }
  return out
}

function decode(stored, file) {
  const { hash, pack } = file.packed
  let raw
  if (stored[0] === RAW) raw = stored.subarray(1)
  else if (stored[0] === BROTLI) {
    try {
      raw = brotliDecompressSync(stored.subarray(1))
    } catch (error) {
      throw Object.assign(new Error('object ' + hash + ' in ' + pack + ' cannot be decompressed: ' + error.message), { code: 'CORRUPT', path: file.path, hash })
    }
  } else throw Object.assign(new Error('object ' + hash + ' in ' + pack + ' has an unknown encoding'), { code: 'CORRUPT', path: file.path, hash })
  if (createHash('sha256').update(raw).digest('hex') !== hash) {
    throw Object.assign(new Error('object ' + hash + ' in ' + pack + ' does not match its hash'), { code: 'CORRUPT', path: file.path, hash })
  }
  return raw
}

function load(files) {
  const contents = files.map((file) => file.data)
  const byPack = new Map()
  files.forEach((file, i) => {
    if (!file.packed) return
    const list = byPack.get(file.packed.pack) ?? []
    list.push(i)
    byPack.set(file.packed.pack, list)
  })
  for (const [pack, list] of byPack) {
    list.sort((a, b) => files[a].packed.offset - files[b].packed.offset)
    let fd
    try {
      fd = fs.openSync(pack, 'r')
    } catch (error) {
      throw Object.assign(error, { packGone: error.code === 'ENOENT' })
    }
    try {
      for (let run = 0; run < list.length; ) {
        const start = files[list[run]].packed.offset
        let end = start + files[list[run]].packed.length
        let last = run + 1
        while (last < list.length && files[list[last]].packed.offset <= end + MAX_GAP) {
          end = Math.max(end, files[list[last]].packed.offset + files[list[last]].packed.length)
          last++
        }
        const bytes = readRange(fd, start, end - start, pack)
        for (let k = run; k < last; k++) {
          const file = files[list[k]]
          const at = file.packed.offset - start
          contents[list[k]] = decode(bytes.subarray(at, at + file.packed.length), file)
        }
        run = last
      }
    } finally {
      fs.closeSync(fd)
    }
  }
  return contents
}

parentPort.on('message', ({ id, files, foldersUnder }) => {
  const stats = []
  try {
    const contents = load(files)
    let folder = null
    files.forEach((file, i) => {
      const data = contents[i]
      if (foldersUnder) {
        const parent = file.path.slice(0, file.path.lastIndexOf('/'))
        if (parent !== folder) {
          if (parent !== foldersUnder && !parent.startsWith(foldersUnder + '/')) {
            throw Object.assign(new Error('file ' + file.path + ' is outside ' + foldersUnder), { code: 'EINVAL', path: file.path })
          }
          // Another writer may be creating the same folders: recursive mkdir takes an existing one as done.
          fs.mkdirSync(parent, { recursive: true })
          folder = parent
        }
      }
      const fd = fs.openSync(file.path, 'wx', file.mode)
      try {
        let offset = 0
        while (offset < data.length) offset += fs.writeSync(fd, data, offset)
        const st = fs.fstatSync(fd, { bigint: true })
        stats.push({ size: Number(st.size), mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs, ino: st.ino, mode: Number(st.mode) })
      } finally {
        fs.closeSync(fd)
      }
    })
    parentPort.postMessage({ id, stats })
  } catch (error) {
    parentPort.postMessage({ id, error: { message: error.message, code: error.code, path: error.path, hash: error.hash, packGone: error.packGone === true && stats.length === 0 } })
  }
})
`

/** Files per batch, and bytes per batch (whichever is reached first). */
const BATCH_FILES = 200
const BATCH_BYTES = 4 * 1024 * 1024

interface Reply {
  id: number
  stats?: WrittenStat[]
  error?: { message: string; code?: string; path?: string; hash?: string; packGone?: boolean }
}

/**
 * Writes many new files from several threads at once. Creating files costs the kernel more than
 * the bytes do, and one thread (or libuv's four, one call at a time) leaves cores idle: a 40k-file
 * copy takes about a third of the time from four writers. Content is read batch by batch, so
 * memory holds a few batches, not the tree. Returns each file's stat, in order.
 */
export async function writeNewFiles(files: NewFiles, writers = Math.min(4, Math.max(2, availableParallelism()))): Promise<WrittenStat[]> {
  const stats: WrittenStat[] = new Array<WrittenStat>(files.count)
  if (files.count === 0) return stats
  const batches: Array<{ start: number; end: number }> = []
  for (let start = 0; start < files.count; ) {
    let end = start
    let bytes = 0
    while (end < files.count && end - start < BATCH_FILES && (bytes < BATCH_BYTES || end === start)) bytes += files.sizeOf(end++)
    batches.push({ start, end })
    start = end
  }
  const pool = Array.from({ length: Math.min(writers, batches.length) }, () => new Worker(WRITER_SOURCE, { eval: true }))
  let next = 0
  const run = (worker: Worker): Promise<void> =>
    new Promise((resolve, reject) => {
      const send = (): void => {
        if (next >= batches.length) {
          resolve()
          return
        }
        const id = next++
        post(id, (i) => files.read(i))
      }
      const post = (id: number, read: (i: number) => NewFile): void => {
        const { start, end } = batches[id] as { start: number; end: number }
        // Each file's bytes in a buffer of their own, moved (not copied) to the writer: a Buffer may be
        // a view of a larger one (a pack, Node's pool), which posting would copy whole. Packed content
        // goes as its place in the pack: the writer reads it.
        const moved: ArrayBuffer[] = []
        const batch = Array.from({ length: end - start }, (_, i) => {
          const file = read(start + i)
          if (!file.data) return file
          const data = new Uint8Array(file.data)
          moved.push(data.buffer)
          return { ...file, data }
        })
        worker.postMessage({ id, files: batch, foldersUnder: files.foldersUnder }, moved)
      }
      const retried = new Set<number>()
      worker.on('message', (reply: Reply) => {
        if (reply.error) {
          const { load } = files
          if (reply.error.packGone && load && !retried.has(reply.id)) {
            // Nothing of the batch was written: send it again with its bytes, read through the store.
            retried.add(reply.id)
            try {
              post(reply.id, (i) => load(i))
            } catch (error) {
              reject(error as Error)
            }
            return
          }
          reject(replyError(reply.error))
          return
        }
        const { start } = batches[reply.id] as { start: number }
        reply.stats?.forEach((stat, i) => (stats[start + i] = stat))
        send()
      })
      worker.on('error', reject)
      worker.on('exit', (code) => {
        if (next < batches.length) reject(new Error(`a file writer thread ended early (exit code ${code})`))
      })
      send()
    })
  try {
    await Promise.all(pool.map(run))
  } finally {
    await Promise.all(pool.map((worker) => worker.terminate()))
  }
  return stats
}

function replyError(error: NonNullable<Reply['error']>): Error {
  if (error.code === 'CORRUPT') return snapshotError(SnapshotErrorNames.Corrupt, error.message, { path: error.path, hash: error.hash })
  return Object.assign(new Error(error.message), { code: error.code, path: error.path })
}
