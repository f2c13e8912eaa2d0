import { z } from 'zod'
import { Checkpoint, DiffEntry, FileVersions, RestoreMode, RestorePreview } from '../schema/checkpoint'
import { ProjectId } from '../schema/project'
import { Session, SessionId } from '../schema/session'
import { RelativePath } from '../schema/fs'
import type { DomainContract } from './define'

const CheckpointId = z.string().regex(/^cp_[A-Za-z0-9]{6,40}$/, 'checkpoint id')

const restoreOptions = {
  mode: RestoreMode,
  includeUserCreated: z.boolean().optional(),
  overwriteConflicts: z.boolean().optional(),
}

export const checkpointContract = {
  methods: {
    /** Oldest first; one session's, or the whole project's. */
    list: { input: z.object({ projectId: ProjectId, sessionId: SessionId.optional() }).strict(), output: z.array(Checkpoint) },
    /** The snapshot our last step or restore left the tree at; the newest checkpoint with it is "you are here". */
    position: { input: z.object({ projectId: ProjectId }).strict(), output: z.object({ snapshotId: z.string().nullable() }) },
    /** Files that differ between two checkpoints, or a checkpoint and the working tree (`toId` absent). */
    diff: { input: z.object({ fromId: CheckpointId, toId: CheckpointId.optional() }).strict(), output: z.array(DiffEntry) },
    /** Old and new text of one file, for the diff editor. */
    file: {
      input: z.object({ fromId: CheckpointId, toId: CheckpointId.optional(), path: RelativePath }).strict(),
      output: FileVersions,
    },
    /** What a restore would do; nothing is touched. */
    preview: { input: z.object({ checkpointId: CheckpointId, ...restoreOptions }).strict(), output: RestorePreview },
    restore: {
      input: z.object({ checkpointId: CheckpointId, ...restoreOptions, expectCurrentId: z.string().optional() }).strict(),
      output: z.object({
        preview: RestorePreview,
        undoCheckpointId: z.string().nullable(),
        written: z.number(),
        deleted: z.number(),
        messagesRemoved: z.number(),
      }),
    },
    /** Snapshot storage used by the project, against its quota. */
    usage: {
      input: z.object({ projectId: ProjectId }).strict(),
      output: z.object({ totalBytes: z.number(), quotaBytes: z.number().nullable(), overQuota: z.boolean() }),
    },
    /** A new session with the conversation up to the checkpoint (and its files, with `code`). */
    fork: { input: z.object({ checkpointId: CheckpointId, code: z.boolean().optional() }).strict(), output: Session },
  },
  events: {
    created: Checkpoint,
  },
  /** What its methods can fail with, besides the failures of any call (`CallErrors`). */
  errors: [
    'NotFound', 'OutsideWorkspace', 'ProjectBusy', 'ProjectNotOpen', 'ProjectMissing', 'NotADirectory',
    'Unsupported', 'SnapshotStoreBusy', 'SnapshotRestorePending', 'SnapshotPreviewStale', 'SnapshotStoreCorrupt',
    'SnapshotRestoreBlocked', 'SnapshotWalkStopped', 'SnapshotWorkerFailed',
  ],
} satisfies DomainContract<'checkpoint'>
