import Database from 'better-sqlite3'
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import { migrations } from './migrations'
import { reusePreparedStatements } from './statement-cache'
import { HotaruError } from '@shared/errors'
import { isDiskFull, storageError, StorageErrorNames } from './storage-errors'

export type Db = Database.Database

/** Databases opened read-only because the data folder's disk is full, with the failure that made it so. */
const readOnlyDbs = new WeakMap<Db, HotaruError>()

/** Opened read-only because the data folder's disk is full (see `openDatabase`). */
export function isReadOnlyFallback(db: Db): boolean {
  return readOnlyDbs.has(db)
}

/**
 * Why the database is read-only, worded for the user (which folder, what to do), or undefined when it
 * is writable: a turn cannot be saved there, and says so before it starts.
 */
export function readOnlyError(db: Db): HotaruError | undefined {
  const failure = readOnlyDbs.get(db)
  if (!failure) return undefined
  const path = typeof failure.data.path === 'string' ? failure.data.path : ''
  return new HotaruError(StorageErrorNames.Full, { message: `${failure.message} Sessions are open read-only until then, so no turn can run.`, path })
}

/**
 * Opens the session database. A failure names the file and the way out (`storage-errors.ts`);
 * a damaged file is never replaced or recreated. When the disk is full and the database exists,
 * a read-only copy is opened instead (`openReadOnly`), so sessions can still be listed and read;
 * `onReadOnly` is told why.
 */
// better-sqlite3's N-API addon loads in Node and in Electron alike: one build, no per-runtime binding.
export function openDatabase(file: string, onReadOnly?: (reason: string) => void): Db {
  try {
    return openWritable(file)
  } catch (error) {
    const failure = storageError(file, error, 'opening it')
    if (file === ':memory:' || !existsSync(file) || !(isDiskFull(error) || String((error as { code?: unknown }).code ?? '').startsWith('SQLITE_IOERR'))) throw failure
    const db = openReadOnly(file, failure)
    onReadOnly?.(`${failure.message} Until then sessions open read-only: they can be listed and read, not continued.`)
    return db
  }
}

function openWritable(file: string): Db {
  if (file !== ':memory:') prepareFiles(file)
  const db = new Database(file)
  try {
    setWalMode(db)
    // SQLite creates -wal/-shm with the database file's mode; tighten ones an older build left behind.
    if (file !== ':memory:') restrictSidecars(file)
    db.pragma('synchronous = NORMAL')
    db.pragma('foreign_keys = ON')
    db.pragma('busy_timeout = 5000')
    migrate(db)
  } catch (error) {
    db.close()
    throw error
  }
  reusePreparedStatements(db)
  return db
}

/**
 * A read-only copy in memory of a database whose disk is full. SQLite cannot open it in place:
 * a WAL database needs its `-shm` file even to read, and a full disk cannot hold one. The copy is
 * complete when the write-ahead log is empty or gone (every clean close leaves it so); with
 * changes still in the log it is refused rather than showing sessions without them.
 */
function openReadOnly(file: string, failure: HotaruError): Db {
  const wal = `${file}-wal`
  if (existsSync(wal) && statSync(wal).size > 0) throw failure
  const image = readFileSync(file)
  // Bytes 18–19 of the header say WAL (2); SQLite opens an in-memory image only in rollback mode (1).
  if (image.length >= 100) image.fill(1, 18, 20)
  let db: Db
  try {
    db = new Database(image, { readonly: true })
    if (schemaVersion(db) !== migrations.length) throw failure
  } catch (error) {
    throw error === failure ? failure : storageError(file, error, 'reading it read-only')
  }
  readOnlyDbs.set(db, failure)
  reusePreparedStatements(db)
  return db
}

/**
 * Switches to WAL. Another process switching the same new file at that moment makes SQLite answer
 * SQLITE_BUSY at once, without its busy handler, so that is retried for up to the busy timeout.
 */
function setWalMode(db: Db): void {
  const deadline = Date.now() + 5_000
  for (;;) {
    try {
      db.pragma('journal_mode = WAL')
      return
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw error
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20)
    }
  }
}

/** Owner-only access (POSIX): every transcript, setting and approval is in this database. */
const DIR_MODE = 0o700
const FILE_MODE = 0o600
const SIDECARS = ['-wal', '-shm'] as const

/**
 * Creates the data dir 0700 and the database file 0600 before SQLite opens it, and
 * repairs the modes of an existing install, so other local users can read nothing.
 */
function prepareFiles(file: string): void {
  const dir = dirname(file)
  mkdirSync(dir, { recursive: true, mode: DIR_MODE })
  if (process.platform === 'win32') return
  chmodSync(dir, DIR_MODE)
  if (!existsSync(file)) closeSync(openSync(file, 'a', FILE_MODE))
  chmodSync(file, FILE_MODE)
}

function restrictSidecars(file: string): void {
  if (process.platform === 'win32') return
  for (const suffix of SIDECARS) if (existsSync(file + suffix)) chmodSync(file + suffix, FILE_MODE)
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number
}

function migrate(db: Db): void {
  // Two processes opening a new data dir at once (two `hotaru run`s) must not both migrate it: the write
  // lock is taken first (the other waits, busy_timeout) and the version is read under it.
  db.transaction(() => {
    const current = schemaVersion(db)
    if (current > migrations.length) {
      throw new Error(
        `database schema version ${current} is newer than this build supports (${migrations.length}); update Hotaru`,
      )
    }
    for (let version = current; version < migrations.length; version++) {
      db.exec(migrations[version] as string)
      db.pragma(`user_version = ${version + 1}`)
    }
  }).immediate()
}
