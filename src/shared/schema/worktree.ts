import { z } from 'zod'
import { ProjectId } from './project'
import { WorktreeName } from './worktree-name'

export { WorktreeName } from './worktree-name'

/** `git`: a `git worktree` on branch `hotaru/<name>`; `copy`: a non-git folder copied from a checkpoint snapshot. */
export const WorktreeKind = z.enum(['git', 'copy'])
export type WorktreeKind = z.infer<typeof WorktreeKind>

/** `running`: a session in it is busy; `merged`: merged back and unchanged since; `idle`: anything else. */
export const WorktreeStatus = z.enum(['running', 'idle', 'merged'])
export type WorktreeStatus = z.infer<typeof WorktreeStatus>

/** Where a new git worktree branches from: the current HEAD of the main tree, or the default branch. */
export const WorktreeBase = z.enum(['head', 'default'])
export type WorktreeBase = z.infer<typeof WorktreeBase>

/** A worktree's own TCP ports, `first` to `last` (commands in it get `HOTARU_PORT` and `HOTARU_PORTS`). */
export const PortBlock = z.object({ first: z.number().int(), last: z.number().int() })
export type PortBlock = z.infer<typeof PortBlock>

export const Worktree = z.object({
  name: WorktreeName,
  kind: WorktreeKind,
  /** `hotaru/<name>` for git; null for a copy. */
  branch: z.string().nullable(),
  /** Absolute path of the worktree folder. */
  path: z.string(),
  /** What its changes are measured against: a commit sha (git) or a snapshot id (copy). */
  base: z.string(),
  /** The project the worktree belongs to (its main tree). */
  parentProjectId: ProjectId,
  /** The worktree's own project: its sessions, checkpoints, terminals and tools live under this id. */
  projectId: ProjectId,
  createdAt: z.number(),
  /** When it was last merged back; null if never. */
  mergedAt: z.number().nullable(),
  /** Root sessions of the worktree's project. */
  sessions: z.number(),
  /** Files that differ from the base (committed and uncommitted); -1 while not computed. */
  changedFiles: z.number(),
  status: WorktreeStatus,
  /** Its project is open in this process (sessions can run there now). */
  open: z.boolean(),
  /** Its block of ports; null for a worktree recorded before ports were given (it gets one when next opened). */
  ports: PortBlock.nullable(),
})
export type Worktree = z.infer<typeof Worktree>

export const WorktreeFileStatus = z.enum(['added', 'modified', 'deleted'])
export type WorktreeFileStatus = z.infer<typeof WorktreeFileStatus>

/**
 * One file changed on one side since the base, with its unified diff (empty for binary files). A renamed
 * file is one change: `path` is its new name, `from` the name it had at the base, `status` is `added` (the
 * old name's deletion is part of it) and the diff goes from the old content to the new.
 */
export const WorktreeFileChange = z.object({
  path: z.string(),
  status: WorktreeFileStatus,
  /** Renamed: its path at the base. */
  from: z.string().optional(),
  /** Renamed: how much of the content stayed, in percent (git's rename score); 100 when only the name changed. */
  similarity: z.number().int().min(0).max(100).optional(),
  binary: z.boolean(),
  additions: z.number(),
  deletions: z.number(),
  diff: z.string(),
})
export type WorktreeFileChange = z.infer<typeof WorktreeFileChange>

/** The worktree's changes against its base. */
export const WorktreeDiff = z.object({ name: WorktreeName, base: z.string(), files: z.array(WorktreeFileChange) })
export type WorktreeDiff = z.infer<typeof WorktreeDiff>

/**
 * A file both the worktree and the main tree changed since the base (differently): both diffs against the base.
 * For a file the worktree renamed, `main` is the main tree's change at the old path when it changed that one,
 * else at the new path.
 */
export const MergeConflict = z.object({
  path: z.string(),
  worktree: WorktreeFileChange,
  main: WorktreeFileChange,
  /**
   * A text file both sides changed: the regions both changed differently (`git merge-file`); the rest of the
   * file merges by itself. Absent: the file conflicts as a whole (binary, deleted or renamed on one side).
   */
  hunks: z.number().int().positive().optional(),
})
export type MergeConflict = z.infer<typeof MergeConflict>

/** Part of a three-way merged file: text both sides agree on, or a region both changed differently. */
export const MergeRegion = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('same'), text: z.string() }),
  /** `current`: the main tree's text; `incoming`: the worktree's; `base`: what both started from. */
  z.object({ kind: z.literal('conflict'), current: z.string(), base: z.string(), incoming: z.string() }),
])
export type MergeRegion = z.infer<typeof MergeRegion>

/** A conflicting text file as the three-way merge editor shows it. */
export const MergeFile = z.object({ path: z.string(), current: z.string(), incoming: z.string(), regions: z.array(MergeRegion) })
export type MergeFile = z.infer<typeof MergeFile>

/**
 * How the user settled one conflict: the whole file as the worktree or the main tree has it, or the text
 * the merge editor produced.
 */
export const MergeResolution = z.union([
  z.object({ path: z.string(), take: z.enum(['worktree', 'main']) }).strict(),
  z.object({ path: z.string(), content: z.string() }).strict(),
])
export type MergeResolution = z.infer<typeof MergeResolution>

/** What a merge would write into the main tree; nothing is touched by computing it. */
export const MergePreview = z.object({
  name: WorktreeName,
  base: z.string(),
  /** Worktree changes the main tree did not touch: applied by every merge. */
  /** A rename is one `create` of the new path with `from` set: the merge deletes `from` and writes `path`. */
  apply: z.array(
    z.object({ path: z.string(), action: z.enum(['create', 'update', 'delete']), from: z.string().optional(), change: WorktreeFileChange }),
  ),
  /**
   * Changed on both sides in different places: git merges them hunk by hunk; `change` is what the merge
   * writes (the main tree's version → the merged one).
   */
  merged: z.array(z.object({ path: z.string(), from: z.string().optional(), change: WorktreeFileChange })),
  /**
   * Changed on both sides, differently: a merge needs a resolution of each, or `skipConflicts` (keep the
   * main tree's) or `overwriteConflicts`.
   */
  conflicts: z.array(MergeConflict),
  /** Changed the same way on both sides: nothing to write. */
  same: z.array(z.string()),
})
export type MergePreview = z.infer<typeof MergePreview>

export const MergeResult = z.object({
  preview: MergePreview,
  written: z.number(),
  deleted: z.number(),
  /** Renamed files among them (each is one of `written` and its old path one of `deleted`). */
  renamed: z.number().optional(),
  /** Files both sides changed, merged hunk by hunk (each is one of `written`). */
  merged: z.number().optional(),
  /** Conflicting files left as the main tree has them (`skipConflicts`). */
  skipped: z.array(z.string()),
  /** A checkpoint of the main tree taken before anything was written: restoring it undoes the merge. */
  undoCheckpointId: z.string().nullable(),
  /** The git branch, kept for a normal git merge or pull request; null for a copy. */
  branch: z.string().nullable(),
})
export type MergeResult = z.infer<typeof MergeResult>
