import { join } from 'node:path'
import { openDatabase, type Db } from './database'
import { ApprovalsRepo } from './approvals-repo'
import { CheckpointsRepo } from './checkpoints-repo'
import { KvRepo } from './kv-repo'
import { ProjectsRepo } from './projects-repo'
import { SessionLocksRepo } from './session-locks-repo'
import { SessionsRepo } from './sessions-repo'
import { TrustRepo } from './trust-repo'
import { WorktreesRepo } from './worktrees-repo'

/** The only module that speaks SQL; everything else goes through these repos. */
export class Storage {
  readonly projects: ProjectsRepo
  readonly kv: KvRepo
  readonly sessions: SessionsRepo
  readonly approvals: ApprovalsRepo
  readonly checkpoints: CheckpointsRepo
  readonly trust: TrustRepo
  readonly worktrees: WorktreesRepo
  readonly sessionLocks: SessionLocksRepo

  constructor(readonly db: Db) {
    this.projects = new ProjectsRepo(db)
    this.kv = new KvRepo(db)
    this.sessions = new SessionsRepo(db)
    this.approvals = new ApprovalsRepo(db)
    this.checkpoints = new CheckpointsRepo(db)
    this.trust = new TrustRepo(db)
    this.worktrees = new WorktreesRepo(db)
    this.sessionLocks = new SessionLocksRepo(db)
  }

  /** `onReadOnly`: the disk is full and the database opened read-only (see `openDatabase`), with what to do. */
  static open(dataDir: string, onReadOnly?: (reason: string) => void): Storage {
    return new Storage(openDatabase(join(dataDir, 'hotaru.db'), onReadOnly))
  }

  close(): void {
    if (this.db.open) this.db.close()
  }
}

export { isReadOnlyFallback, openDatabase, readOnlyError, schemaVersion } from './database'
export { isStorageFailure, StorageErrorNames, storageError } from './storage-errors'
export { moveDamagedAside } from './damaged'
export { WalCheckpoints, type WalCheckpointsOptions } from './wal-checkpoints'
export type { Db } from './database'
export type { ProjectRow } from './projects-repo'
export type { SessionLockRow } from './session-locks-repo'
export type { TrustRow } from './trust-repo'
export type { WorktreeRow } from './worktrees-repo'
