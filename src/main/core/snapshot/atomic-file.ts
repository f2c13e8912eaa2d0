import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import { errnoCode } from './errors'

let tempCounter = 0

/** A temp name next to `path` that no other writer (process or call) can pick. */
export function tempPathFor(path: string): string {
  tempCounter = (tempCounter + 1) % 1_000_000_000
  return `${path}.${process.pid}.${tempCounter}.tmp`
}

/**
 * Writes `data` to `path` so readers see either the old file or the whole new one:
 * temp file in the same directory, then rename. `durable` adds fsync of the file and
 * its directory, for small records whose loss after a power cut would matter (journal,
 * index base); content blobs skip it because reads verify their hash.
 */
export function writeFileAtomic(path: string, data: Uint8Array | string, durable = false): void {
  const temp = tempPathFor(path)
  const fd = openSync(temp, 'wx', 0o644)
  try {
    try {
      writeAll(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data)
      if (durable) fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(temp, path)
  } catch (error) {
    removeQuietly(temp)
    throw error
  }
  if (durable) fsyncDir(dirname(path))
}

function writeAll(fd: number, data: Uint8Array): void {
  let offset = 0
  while (offset < data.length) offset += writeSync(fd, data, offset, data.length - offset)
}

/** Makes a rename or unlink in `dir` durable. Windows cannot open directories; there the rename is all we get. */
export function fsyncDir(dir: string): void {
  if (process.platform === 'win32') return
  const fd = openSync(dir, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

/** Removes a file that may not exist (cleanup after a failure); failures other than absence are reported. */
export function removeQuietly(path: string): void {
  try {
    unlinkSync(path)
  } catch (error) {
    const code = errnoCode(error)
    if (code !== 'ENOENT' && code !== 'ENOTDIR') console.warn(`[snapshot] cannot remove ${path}: ${(error as Error).message}`)
  }
}
