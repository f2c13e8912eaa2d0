import { z } from 'zod'

/** `merge`: the main tree before a worktree was merged into it (restoring it undoes the merge). */
export const CheckpointTrigger = z.enum(['message', 'step', 'restore', 'fork', 'review', 'merge'])

/** Why a file's content is not in a checkpoint; absent in checkpoints recorded before reasons were kept (then: too large). */
export const UntrackedReason = z.enum(['too-large', 'unreadable'])
export type UntrackedReason = z.infer<typeof UntrackedReason>

export const UntrackedFile = z.object({ path: z.string(), size: z.number(), reason: UntrackedReason.optional() })
export type UntrackedFile = z.infer<typeof UntrackedFile>

export const ChangeSummary = z.object({
  added: z.number(),
  modified: z.number(),
  deleted: z.number(),
  additions: z.number(),
  deletions: z.number(),
  /** Per file: its line counts (absent in checkpoints recorded before they were kept, and for binary or large files). */
  files: z.array(z.object({ path: z.string(), status: z.enum(['added', 'modified', 'deleted']), additions: z.number().optional(), deletions: z.number().optional() })),
  /** Files whose content was not kept, and why (listed so the UI can warn; never silently dropped). */
  untracked: z.array(UntrackedFile),
  /** Folders that could not be listed: what they hold is not in the checkpoint (absent in older checkpoints). */
  unreadableFolders: z.array(z.string()).optional(),
})
export type ChangeSummary = z.infer<typeof ChangeSummary>

/** A call of a step that may have changed files: the tool, and its command (bash) or file, as the model gave it. */
export const CheckpointAction = z.object({ tool: z.string(), subject: z.string().optional() })
export type CheckpointAction = z.infer<typeof CheckpointAction>

export const Checkpoint = z.object({
  id: z.string(),
  projectId: z.string(),
  sessionId: z.string().nullable(),
  /** The user message it precedes (trigger `message`) or the assistant message whose step made it. */
  messageId: z.string().nullable(),
  snapshotId: z.string(),
  trigger: CheckpointTrigger,
  createdAt: z.number(),
  /** Changes since the previous checkpoint of the same session. */
  summary: ChangeSummary,
  /**
   * Set when the checkpoint holds only these paths (project-relative; absent ones are not in its
   * snapshot): its message's walk of the tree was stopped at exit, so it keeps what the tools wrote.
   * Restore, preview and diff cover exactly these paths. Unset: the whole tree.
   */
  scope: z.array(z.string()).optional(),
  /** Trigger `step`: its calls that may have changed files, in the order they ended (absent in older checkpoints). */
  actions: z.array(CheckpointAction).optional(),
  /** Trigger `message`: the first line the user wrote (absent in older checkpoints). */
  prompt: z.string().optional(),
})
export type Checkpoint = z.infer<typeof Checkpoint>

export const DiffEntry = z.object({
  path: z.string(),
  status: z.enum(['added', 'modified', 'deleted']),
  /** Kind on the new side (old side for deletions); `untracked`: a file too large to keep (listed, content not stored). */
  kind: z.enum(['file', 'symlink', 'untracked']),
  oldKind: z.enum(['file', 'symlink', 'untracked']).optional(),
  /** Content has a NUL byte in its first 8000 bytes (git's heuristic): no line counts. */
  binary: z.boolean().optional(),
  /** Content of one side is not in the store (untracked): no line counts. */
  untracked: z.boolean().optional(),
  /** Over the text diff cap (2 MB): no line counts. */
  tooLarge: z.boolean().optional(),
  /** Only the exec bit changed. */
  modeOnly: z.boolean().optional(),
  additions: z.number().optional(),
  deletions: z.number().optional(),
})
export type DiffEntry = z.infer<typeof DiffEntry>

export const FileSide = z.object({
  kind: z.enum(['file', 'symlink', 'untracked']),
  size: z.number(),
  /** Text for a diff viewer; null when binary, untracked or over the viewer cap. Symlinks give their target. */
  text: z.string().nullable(),
})
export type FileSide = z.infer<typeof FileSide>
export const FileVersions = z.object({ path: z.string(), binary: z.boolean(), old: FileSide.nullable(), new: FileSide.nullable() })
export type FileVersions = z.infer<typeof FileVersions>

export const RestoreMode = z.enum(['code', 'conversation', 'both'])
export type RestoreMode = z.infer<typeof RestoreMode>

export const RestorePreview = z.object({
  checkpointId: z.string(),
  mode: RestoreMode,
  /** The working tree as it is now; restoring it undoes the restore. */
  currentId: z.string().nullable(),
  writes: z.array(z.object({ path: z.string(), action: z.enum(['create', 'update']) })),
  deletes: z.array(z.string()),
  unchanged: z.number(),
  conflicts: z.array(z.object({ path: z.string(), reason: z.string(), resolution: z.enum(['keep', 'overwrite']) })),
  userCreated: z.array(z.object({ path: z.string(), resolution: z.enum(['keep', 'delete']) })),
  skipped: z.array(z.object({ path: z.string(), reason: z.string() })),
  /** Files not kept at that checkpoint (too large, unreadable): they cannot be restored. */
  untracked: z.array(UntrackedFile),
  /** Folders that could not be listed when the checkpoint was taken: nothing under them can be restored. */
  unreadableFolders: z.array(z.string()).optional(),
  /** Messages a conversation restore removes (that message and everything after it). */
  messagesRemoved: z.number(),
})
export type RestorePreview = z.infer<typeof RestorePreview>
