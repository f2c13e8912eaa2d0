import { dirname } from 'node:path'
import { HotaruError } from '@shared/errors'

export const StorageErrorNames = {
  /** The disk holding the data folder is full (or over quota). */
  Full: 'StorageFull',
  /** The database file is damaged or is not a database. */
  Damaged: 'StorageDamaged',
  /** The data folder or the database cannot be read or written (permissions, I/O errors, read-only disk). */
  Unavailable: 'StorageUnavailable',
} as const

/** SQLite's extended result codes as better-sqlite3 gives them (`SQLITE_IOERR_WRITE`, …) and Node's errno codes. */
function codeOf(error: unknown): string {
  return String((error as { code?: unknown }).code ?? '')
}

export function isDiskFull(error: unknown): boolean {
  const code = codeOf(error)
  return code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT' || /database or disk is full|no space left/i.test((error as Error).message)
}

/** A failure of the database itself (full, I/O, damaged), as opposed to a constraint or a bug. */
export function isStorageFailure(error: unknown): boolean {
  const code = codeOf(error)
  return isDiskFull(error) || code.startsWith('SQLITE_IOERR') || isDamaged(error)
}

function isDamaged(error: unknown): boolean {
  const code = codeOf(error)
  return code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB'
}

/**
 * The failure of the session database as the user needs it: which file, what is wrong, what to
 * do. SQLite says "disk I/O error" or "file is not a database" and nothing else. A shared-memory
 * or write error on open (`SQLITE_IOERR_SHMSIZE`, …) is mostly a full disk too: the `-shm` file
 * could not be created or grown.
 */
export function storageError(file: string, error: unknown, doing: string): HotaruError {
  if (error instanceof HotaruError) return error
  const dir = dirname(file)
  const cause = (error as Error).message
  if (isDamaged(error)) {
    return new HotaruError(
      StorageErrorNames.Damaged,
      {
        message:
          `The session database ${file} is damaged (${cause}) while ${doing}. It was left as it is. ` +
          `To start over with an empty one and keep the damaged file for recovery, move it aside (for example to ${file}.damaged-${stamp()}) ` +
          `together with its -wal and -shm files; \`sqlite3 ${file} .recover\` can often get the sessions back out of it.`,
        path: file,
      },
      { cause: error },
    )
  }
  const full = isDiskFull(error) || codeOf(error).startsWith('SQLITE_IOERR')
  const what = isDiskFull(error) ? 'the disk holding it is full' : full ? 'it could not be written (a full disk, usually)' : 'it could not be opened'
  return new HotaruError(
    full ? StorageErrorNames.Full : StorageErrorNames.Unavailable,
    {
      message:
        `Cannot use the data folder ${dir}: ${what} (${cause}) while ${doing}. ` +
        (full
          ? `Free space on that disk, or move the data folder to another disk with HOTARU_DATA_DIR (move its contents there to keep your sessions).`
          : `Check that ${dir} and ${file} can be read and written by you, or point HOTARU_DATA_DIR at another folder.`),
      path: dir,
    },
    { cause: error },
  )
}

/** A timestamp for a file name: `2026-12-07T06-12-03-123Z`. */
export function stamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-')
}
