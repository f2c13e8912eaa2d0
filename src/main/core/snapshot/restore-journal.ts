import { randomBytes } from 'node:crypto'
import { readFileSync, unlinkSync } from 'node:fs'
import { join } from 'node:path'
import { writeFileAtomic } from './atomic-file'
import { errnoCode, SnapshotErrorNames, snapshotError } from './errors'
import { sha256 } from './object-store'
import type { FileEntry, ManifestEntry, SnapshotId, SymlinkEntry } from './types'

const JOURNAL_FILE = 'restore-journal.json'

/**
 * `before` is what the path held in the pre-restore snapshot (null: nothing), so a rollback
 * needs that entry's blob and nothing else from the store. Journals of version 1 lack it; their
 * recovery looks the path up in the pre-restore snapshot's trees.
 */
export type JournalOp =
  | { op: 'delete'; path: string; before?: ManifestEntry | null }
  | { op: 'write'; path: string; entry: FileEntry | SymlinkEntry; before?: ManifestEntry | null }

/**
 * Written (durably) before a restore touches the tree, removed when it is done. If the
 * app dies in between, `recover()` finds it and completes the ops or rolls them back to
 * the pre-restore snapshot. `nonce` names the restore's temp files so they can be found.
 */
export interface RestoreJournal {
  v: 1 | 2
  /**
   * The content (base64) of small `before` blobs, by hash: a rollback finds them here, so
   * their store files need not be synced before the journal (a one-file restore then costs
   * the journal's own two fsyncs). Larger ones are synced in the store instead.
   */
  saved?: Record<string, string>
  nonce: string
  targetId: SnapshotId
  preRestoreId: SnapshotId
  ops: JournalOp[]
}

/** How much `before` content a journal carries itself (see `saved`). */
export const MAX_SAVED_BYTES = 256 * 1024

/** Where a restore's applier reads blobs: the journal's saved content first (checked against its hash), then the store. */
export function journalBlobs(journal: RestoreJournal, store: BlobSource): BlobSource {
  const saved = journal.saved ?? {}
  return {
    get(hash) {
      const text = saved[hash]
      if (text === undefined) return store.get(hash)
      const data = Buffer.from(text, 'base64')
      if (sha256(data) !== hash) throw snapshotError(SnapshotErrorNames.Corrupt, `saved content of ${hash} in the restore journal does not match its hash`, { hash })
      return data
    },
  }
}

export interface BlobSource {
  get(hash: string): Buffer
}

export function newNonce(): string {
  return randomBytes(6).toString('hex')
}

export function journalPath(storeDir: string): string {
  return join(storeDir, JOURNAL_FILE)
}

export function writeJournal(storeDir: string, journal: RestoreJournal): void {
  writeFileAtomic(journalPath(storeDir), JSON.stringify(journal), true)
}

export function readJournal(storeDir: string): RestoreJournal | null {
  let text: string
  try {
    text = readFileSync(journalPath(storeDir), 'utf8')
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null
    throw error
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    // The journal is written atomically, so a torn one means outside damage: say so, do not guess.
    throw snapshotError(SnapshotErrorNames.Corrupt, `restore journal ${journalPath(storeDir)} is unreadable`, {}, error)
  }
  const journal = parsed as Partial<RestoreJournal>
  if (
    (journal.v !== 1 && journal.v !== 2) ||
    typeof journal.nonce !== 'string' ||
    typeof journal.targetId !== 'string' ||
    typeof journal.preRestoreId !== 'string' ||
    !Array.isArray(journal.ops) ||
    (journal.saved !== undefined && (typeof journal.saved !== 'object' || journal.saved === null || !Object.values(journal.saved).every((v) => typeof v === 'string')))
  ) {
    throw snapshotError(SnapshotErrorNames.Corrupt, `restore journal ${journalPath(storeDir)} is malformed`)
  }
  return journal as RestoreJournal
}

/** No fsync: a journal that reappears after a power cut is recovered again, harmlessly (recovery is idempotent). */
export function removeJournal(storeDir: string): void {
  try {
    unlinkSync(journalPath(storeDir))
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error
  }
}
