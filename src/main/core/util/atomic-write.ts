import { chmodSync, closeSync, fsyncSync, mkdirSync, openSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import { assertNotSpecial } from './regular-file'

let counter = 0

/**
 * Writes a file so readers see the old content or the whole new one, never a mix:
 * temp file beside it, then rename. The existing file's mode is kept; a new file
 * gets 0644 (less the umask). `abs` must already be symlink-resolved so the
 * rename replaces the real file, not a link to it.
 */
export function writeFileAtomic(abs: string, data: string | Uint8Array): void {
  let mode: number | undefined
  try {
    const current = statSync(abs)
    // Replacing a FIFO, socket or device with a file would break whatever uses it.
    assertNotSpecial(current, abs)
    mode = current.mode & 0o7777
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    mkdirSync(dirname(abs), { recursive: true })
  }
  counter = (counter + 1) % 1_000_000_000
  const temp = `${abs}.hotaru-${process.pid}-${counter}.tmp`
  const fd = openSync(temp, 'wx', mode ?? 0o666)
  try {
    try {
      const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data
      let offset = 0
      while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    // openSync's mode is filtered by the umask; an existing file's mode must survive exactly.
    if (mode !== undefined) chmodSync(temp, mode)
    renameSync(temp, abs)
  } catch (error) {
    try {
      unlinkSync(temp)
    } catch (cleanup) {
      if ((cleanup as NodeJS.ErrnoException).code !== 'ENOENT') console.warn(`[tools] cannot remove ${temp}: ${(cleanup as Error).message}`)
    }
    throw error
  }
}
