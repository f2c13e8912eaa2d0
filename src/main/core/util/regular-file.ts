import { closeSync, constants, fstatSync, openSync, readFileSync, statSync, type Stats } from 'node:fs'
import { open, stat, type FileHandle } from 'node:fs/promises'
import { HotaruError } from '@shared/errors'

export const NOT_A_REGULAR_FILE = 'NotARegularFile'

/** What a non-regular file is, in words; null for a regular file or a directory (callers report those themselves). */
export function specialKind(stats: Stats): string | null {
  if (stats.isFIFO()) return 'a named pipe (FIFO)'
  if (stats.isSocket()) return 'a socket'
  if (stats.isCharacterDevice()) return 'a character device'
  if (stats.isBlockDevice()) return 'a block device'
  return null
}

export function notARegularFile(rel: string, kind: string): HotaruError {
  return new HotaruError(NOT_A_REGULAR_FILE, { message: `"${rel}" is ${kind}, not a regular file; it is not opened`, path: rel, kind })
}

/** Throws when `stats` is a FIFO, socket or device: reading one can block forever or never end. */
export function assertNotSpecial(stats: Stats, rel: string): void {
  const kind = specialKind(stats)
  if (kind) throw notARegularFile(rel, kind)
}

// O_NONBLOCK: a FIFO swapped in after the check still cannot block the open; O_NOCTTY: a terminal never becomes ours.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0)

/**
 * Opens a file for reading only if it is a regular file: checked before opening (a FIFO is never opened, so
 * nothing waits for a writer) and again on the open descriptor (a file replaced in between is caught).
 * Asynchronous, so the event loop is never held by the file system.
 */
export async function openRegularFile(abs: string, rel: string): Promise<{ handle: FileHandle; stats: Stats }> {
  const before = await stat(abs)
  assertNotSpecial(before, rel)
  const handle = await open(abs, READ_FLAGS)
  try {
    const stats = await handle.stat()
    if (!stats.isFile()) throw notARegularFile(rel, specialKind(stats) ?? 'a directory')
    return { handle, stats }
  } catch (error) {
    await handle.close()
    throw error
  }
}

/** Up to `cap` bytes from the start of a regular file, read in chunks into one buffer of at most `cap` bytes. */
export async function readRegularHead(abs: string, rel: string, cap: number): Promise<{ buffer: Buffer; stats: Stats }> {
  const { handle, stats } = await openRegularFile(abs, rel)
  try {
    const buffer = Buffer.alloc(Math.min(stats.size, cap))
    let offset = 0
    while (offset < buffer.length) {
      const { bytesRead } = await handle.read(buffer, offset, buffer.length - offset, offset)
      if (bytesRead === 0) break
      offset += bytesRead
    }
    return { buffer: buffer.subarray(0, offset), stats }
  } finally {
    await handle.close()
  }
}

/**
 * The synchronous form for callers that must stay synchronous (the edit tools compare and write in one step):
 * refused before opening when not a regular file, opened without blocking, verified on the descriptor.
 */
export function readRegularFileSync(abs: string, rel: string): Buffer {
  assertNotSpecial(statSync(abs), rel)
  const fd = openSync(abs, READ_FLAGS)
  try {
    const stats = fstatSync(fd)
    if (!stats.isFile()) throw notARegularFile(rel, specialKind(stats) ?? 'a directory')
    return readFileSync(fd)
  } finally {
    closeSync(fd)
  }
}
