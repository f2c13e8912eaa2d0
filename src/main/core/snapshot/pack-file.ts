import { randomBytes } from 'node:crypto'
import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { writeFileAtomic } from './atomic-file'
import { SnapshotErrorNames, snapshotError } from './errors'

export const PACK_SUFFIX = '.pack'
const MAGIC = Buffer.from('HSP1', 'latin1')
const TRAILER_BYTES = 8
const INDEX_ENTRY_BYTES = 40

export interface PackEntry {
  hash: string
  offset: number
  length: number
}

/** Names a pack whose objects are stored uncompressed until the store compresses them later. */
const DEFERRED_MARK = '.raw'

/** Time-ordered, collision-free pack names; `deferred` marks a pack still to be compressed. */
export function newPackName(deferred = false): string {
  return `${Date.now().toString(36).padStart(9, '0')}-${randomBytes(4).toString('hex')}${deferred ? DEFERRED_MARK : ''}${PACK_SUFFIX}`
}

export function isDeferredPack(name: string): boolean {
  return name.endsWith(`${DEFERRED_MARK}${PACK_SUFFIX}`)
}

/**
 * Pack layout: the encoded objects back to back, then an index of `count` entries
 * (32-byte raw sha256, u32 offset, u32 length, big-endian), then a trailer (u32 count,
 * magic `HSP1`). One file per bulk write, written atomically; like loose objects it is
 * fsynced only when a restore journal is about to depend on an object in it.
 */
export function writePack(path: string, objects: readonly [string, Uint8Array | readonly Uint8Array[]][]): { size: number; entries: PackEntry[] } {
  const entries: PackEntry[] = []
  const parts: Uint8Array[] = []
  let offset = 0
  for (const [hash, encoded] of objects) {
    // An object may come in parts (its encoding byte, then its content), written back to back.
    const pieces = encoded instanceof Uint8Array ? [encoded] : encoded
    let length = 0
    for (const piece of pieces) {
      parts.push(piece)
      length += piece.length
    }
    entries.push({ hash, offset, length })
    offset += length
  }
  const index = Buffer.alloc(entries.length * INDEX_ENTRY_BYTES + TRAILER_BYTES)
  entries.forEach((entry, i) => {
    const at = i * INDEX_ENTRY_BYTES
    index.write(entry.hash, at, 32, 'hex')
    index.writeUInt32BE(entry.offset, at + 32)
    index.writeUInt32BE(entry.length, at + 36)
  })
  index.writeUInt32BE(entries.length, entries.length * INDEX_ENTRY_BYTES)
  MAGIC.copy(index, entries.length * INDEX_ENTRY_BYTES + 4)
  parts.push(index)
  writeFileAtomic(path, parts)
  return { size: offset + index.length, entries }
}

export function readPackIndex(path: string): { size: number; entries: PackEntry[] } {
  const fd = openSync(path, 'r')
  try {
    const size = fstatSync(fd).size
    if (size < TRAILER_BYTES) throw corrupt(path, 'is too short')
    const trailer = readAt(fd, size - TRAILER_BYTES, TRAILER_BYTES)
    if (!trailer.subarray(4).equals(MAGIC)) throw corrupt(path, 'has no pack trailer')
    const count = trailer.readUInt32BE(0)
    const indexStart = size - TRAILER_BYTES - count * INDEX_ENTRY_BYTES
    if (indexStart < 0) throw corrupt(path, 'has an index larger than the file')
    const index = readAt(fd, indexStart, count * INDEX_ENTRY_BYTES)
    const entries: PackEntry[] = []
    for (let i = 0; i < count; i++) {
      const at = i * INDEX_ENTRY_BYTES
      const entry = {
        hash: index.toString('hex', at, at + 32),
        offset: index.readUInt32BE(at + 32),
        length: index.readUInt32BE(at + 36),
      }
      if (entry.offset + entry.length > indexStart) throw corrupt(path, 'indexes past its data')
      entries.push(entry)
    }
    return { size, entries }
  } finally {
    closeSync(fd)
  }
}

/** `length` bytes at `position` (zeros past the end of the file). */
function readAt(fd: number, position: number, length: number): Buffer {
  const out = Buffer.alloc(length)
  readUpTo(fd, position, length, out)
  return out
}

/** Up to `length` bytes at `position`, fewer where the file ends first; positional, so the file offset stays. */
export function readUpTo(fd: number, position: number, length: number, out: Buffer = Buffer.allocUnsafe(length)): Buffer {
  let done = 0
  while (done < length) {
    const read = readSync(fd, out, done, length - done, position + done)
    if (read === 0) break
    done += read
  }
  return out.subarray(0, done)
}

function corrupt(path: string, what: string) {
  return snapshotError(SnapshotErrorNames.Corrupt, `pack ${path} ${what}`, { path })
}
