import { z } from 'zod'
import { defineOpenError } from './define'

/** What a snapshot failure names (the store reports what it found; open). */
const Where = { path: z.string().optional(), hash: z.string().optional() }

/** Failures of the snapshot store behind checkpoints. */
export const SnapshotErrors = {
  /** Another process holds the store (a restore or garbage collection is running there). */
  SnapshotStoreBusy: defineOpenError('SnapshotStoreBusy', Where),
  /** An interrupted restore must be finished with `recover()` before anything else. */
  SnapshotRestorePending: defineOpenError('SnapshotRestorePending', Where),
  /** The working tree changed between the preview and the restore; preview again. */
  SnapshotPreviewStale: defineOpenError('SnapshotPreviewStale', Where),
  /** Stored data does not match its hash or cannot be decoded. */
  SnapshotStoreCorrupt: defineOpenError('SnapshotStoreCorrupt', Where),
  /** A restore cannot write a path (something outside the snapshot is in the way). */
  SnapshotRestoreBlocked: defineOpenError('SnapshotRestoreBlocked', Where),
  /** A walk was stopped before it was done (the process is ending); what it hashed is kept for the next one. */
  SnapshotWalkStopped: defineOpenError('SnapshotWalkStopped', Where),
  /** The snapshot worker thread ended or was closed under a call. */
  SnapshotWorkerFailed: defineOpenError('SnapshotWorkerFailed', Where),
} as const
