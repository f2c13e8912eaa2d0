import { HotaruError, type ErrorDataOf, type SnapshotErrors } from '@shared/errors'

/** Error names of the snapshot domain, on top of the shared ones (`NotFound`, `Internal`...). */
export const SnapshotErrorNames = {
  /** Another process holds the store (a restore or garbage collection is running there). */
  Busy: 'SnapshotStoreBusy',
  /** An interrupted restore must be finished with `recover()` before anything else. */
  RestorePending: 'SnapshotRestorePending',
  /** The working tree changed between the preview and the restore; preview again. */
  Stale: 'SnapshotPreviewStale',
  /** Stored data does not match its hash or cannot be decoded. */
  Corrupt: 'SnapshotStoreCorrupt',
  /** A restore cannot write a path (something outside the snapshot is in the way). */
  Blocked: 'SnapshotRestoreBlocked',
  /** A walk was stopped before it was done (the process is ending); what it hashed is kept for the next one. */
  WalkStopped: 'SnapshotWalkStopped',
} as const satisfies Record<string, keyof typeof SnapshotErrors>

export type SnapshotErrorName = keyof typeof SnapshotErrors

export function snapshotError(name: SnapshotErrorName, message: string, extra: Omit<ErrorDataOf<SnapshotErrorName>, 'message'> = {}, cause?: unknown) {
  return new HotaruError(name, { message, ...extra }, cause === undefined ? undefined : { cause })
}

/** The errno code of a Node fs error, if any. */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  const code = (error as NodeJS.ErrnoException).code
  return typeof code === 'string' ? code : undefined
}
