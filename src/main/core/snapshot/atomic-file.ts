import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync, writevSync } from 'node:fs'
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
export function writeFileAtomic(path: string, data: Uint8Array | string | readonly Uint8Array[], durable = false): void {
  const temp = tempPathFor(path)
  const fd = openSync(temp, 'wx', 0o644)
  try {
    try {
      if (typeof data === 'string') writeAll(fd, Buffer.from(data, 'utf8'))
      else if (data instanceof Uint8Array) writeAll(fd, data)
      else writeParts(fd, data)
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

/** Most systems take at most 1024 buffers per writev. */
const MAX_IOVECS = 1024

/** Writes the parts back to back without first joining them into one buffer (a pack is up to 64 MB). */
function writeParts(fd: number, parts: readonly Uint8Array[]): void {
  for (let start = 0; start < parts.length; start += MAX_IOVECS) {
    const chunk = parts.slice(start, start + MAX_IOVECS)
    let written = writevSync(fd, chunk)
    // A short write: finish the chunk part by part.
    for (const part of chunk) {
      if (written >= part.length) {
        written -= part.length
        continue
      }
      writeAll(fd, part.subarray(written))
      written = 0
    }
  }
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
