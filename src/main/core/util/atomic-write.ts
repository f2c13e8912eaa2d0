import { chmod, mkdir, open, rename, stat, unlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { assertRootExists, makeFoldersBelow } from './project-anchor'
import { assertNotSpecial } from './regular-file'

let counter = 0

/**
 * The gitignore pattern of the temp files `writeFileAtomic` leaves beside their target while it
 * writes. Project walks leave them out: a snapshot taken while a write was in progress would
 * otherwise hold a file that exists for a moment only and that no tool named as written.
 */
export const ATOMIC_TEMP_PATTERN = '*.hotaru-*-*.tmp'

/** Bytes a file name may have on every filesystem we run on (ext4, APFS, NTFS in UTF-16 units). */
const NAME_MAX = 255

/**
 * The temp file a write of `abs` goes through (matches `ATOMIC_TEMP_PATTERN`): the target's
 * name, cut so the whole temp name stays within 255 bytes (a file whose own name is 255 bytes
 * long must still be writable), then `.hotaru-<pid>-<n>.tmp`.
 */
export function atomicTempPath(abs: string): string {
  counter = (counter + 1) % 1_000_000_000
  const suffix = `.hotaru-${process.pid}-${counter}.tmp`
  return join(dirname(abs), cutToBytes(basename(abs), NAME_MAX - suffix.length) + suffix)
}

/** The longest start of `name` within `bytes` UTF-8 bytes, never splitting a character. */
function cutToBytes(name: string, bytes: number): string {
  if (Buffer.byteLength(name) <= bytes) return name
  let out = ''
  let used = 0
  for (const char of name) {
    const size = Buffer.byteLength(char)
    if (used + size > bytes) break
    out += char
    used += size
  }
  return out
}

export interface AtomicWriteOptions {
  /**
   * The project folder the file lies in. Missing parent folders are created below it one at a
   * time, never the folder itself or its ancestors: a project deleted or renamed while open is
   * not recreated as a phantom holding one file (`ProjectMissing` instead).
   */
  root?: string
}


/**
 * Writes a file so readers see the old content or the whole new one, never a mix:
 * temp file beside it, flushed to disk, then rename. The existing file's mode is kept; a new
 * file gets 0644 (less the umask). `abs` must already be symlink-resolved so the rename
 * replaces the real file, not a link to it. Asynchronous: on a busy disk opening the temp file
 * and flushing it can take tens to hundreds of milliseconds, which must not hold the event loop
 * that carries IPC, streams and ptys.
 */
export async function writeFileAtomic(abs: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  let mode: number | undefined
  try {
    const current = await stat(abs)
    // Replacing a FIFO, socket or device with a file would break whatever uses it.
    assertNotSpecial(current, abs)
    mode = current.mode & 0o7777
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    if (options.root === undefined) await mkdir(dirname(abs), { recursive: true })
    else {
      assertRootExists(options.root)
      await makeFoldersBelow(options.root, dirname(abs))
    }
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
