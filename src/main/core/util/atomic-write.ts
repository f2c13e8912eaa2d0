import { chmod, mkdir, open, rename, stat, unlink } from 'node:fs/promises'
import { dirname } from 'node:path'
import { assertNotSpecial } from './regular-file'

let counter = 0

/**
 * The gitignore pattern of the temp files `writeFileAtomic` leaves beside their target while it
 * writes. Project walks leave them out: a snapshot taken while a write was in progress would
 * otherwise hold a file that exists for a moment only and that no tool named as written.
 */
export const ATOMIC_TEMP_PATTERN = '*.hotaru-*-*.tmp'

/** The temp file a write of `abs` goes through (matches `ATOMIC_TEMP_PATTERN`). */
export function atomicTempPath(abs: string): string {
  counter = (counter + 1) % 1_000_000_000
  return `${abs}.hotaru-${process.pid}-${counter}.tmp`
}

/**
 * Writes a file so readers see the old content or the whole new one, never a mix:
 * temp file beside it, flushed to disk, then rename. The existing file's mode is kept; a new
 * file gets 0644 (less the umask). `abs` must already be symlink-resolved so the rename
 * replaces the real file, not a link to it. Asynchronous: on a busy disk opening the temp file
 * and flushing it can take tens to hundreds of milliseconds, which must not hold the event loop
 * that carries IPC, streams and ptys.
 */
export async function writeFileAtomic(abs: string, data: string | Uint8Array): Promise<void> {
  let mode: number | undefined
  try {
    const current = await stat(abs)
    // Replacing a FIFO, socket or device with a file would break whatever uses it.
    assertNotSpecial(current, abs)
    mode = current.mode & 0o7777
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    await mkdir(dirname(abs), { recursive: true })
  }
  const temp = atomicTempPath(abs)
  const file = await open(temp, 'wx', mode ?? 0o666)
  try {
    try {
      await file.writeFile(data)
      await file.sync()
    } finally {
      await file.close()
    }
    // open's mode is filtered by the umask; an existing file's mode must survive exactly.
    if (mode !== undefined) await chmod(temp, mode)
    await rename(temp, abs)
  } catch (error) {
    try {
      await unlink(temp)
    } catch (cleanup) {
      if ((cleanup as NodeJS.ErrnoException).code !== 'ENOENT') console.warn(`[tools] cannot remove ${temp}: ${(cleanup as Error).message}`)
    }
    throw error
  }
}
