import { z } from 'zod'
import { FileVersions } from '../schema/checkpoint'
import { RelativePath } from '../schema/fs'
import { ProjectId } from '../schema/project'
import { MergeFile, MergePreview, MergeResolution, MergeResult, Worktree, WorktreeBase, WorktreeDiff, WorktreeName } from '../schema/worktree'
import type { DomainContract } from './define'

/** `projectId` is always the main project's id (the tab); `name` picks its worktree. */
const Target = { projectId: ProjectId, name: WorktreeName }

export const worktreeContract = {
  methods: {
    /** The project's worktrees, oldest first, with live status and changed-file counts. */
    list: { input: z.object({ projectId: ProjectId }).strict(), output: z.array(Worktree) },
    /**
     * Creates a worktree (a name is generated when omitted; an existing name is an error) and opens its
     * project, so sessions can be created in it with `session.create({projectId: worktree.projectId})`.
     * Its project's events reach this client from then on.
     */
    create: {
      input: z.object({ projectId: ProjectId, name: WorktreeName.optional(), base: WorktreeBase.optional() }).strict(),
      output: Worktree,
    },
    /** Opens an existing worktree's project (after a restart) so its sessions can run; this client gets its events. */
    open: { input: z.object(Target).strict(), output: Worktree },
    /** The worktree's changes against its base, committed and uncommitted. */
    diff: { input: z.object(Target).strict(), output: WorktreeDiff },
    /**
     * Old and new text of one file for the diff editor: `worktree` = base → worktree (default),
     * `main` = base → main tree (the other side of a conflict), `merged` = the main tree's version → what
     * the merge writes for a file merged hunk by hunk. `from`: the worktree renamed the file from that
     * path, where its base version is.
     */
    file: {
      input: z.object({ ...Target, path: RelativePath, side: z.enum(['worktree', 'main', 'merged']).optional(), from: RelativePath.optional() }).strict(),
      output: FileVersions,
    },
    /** What a merge would write, three-way against the main tree; conflicts first-class. Nothing is written. */
    previewMerge: { input: z.object(Target).strict(), output: MergePreview },
    /**
     * A conflicting text file (`hunks` in the preview) for the three-way merge editor: the main tree's
     * version (current), the worktree's (incoming) and the merge in regions, conflicts with all three texts.
     */
    mergeFile: { input: z.object({ ...Target, path: RelativePath }).strict(), output: MergeFile },
    /**
     * Applies the worktree's changes to the main tree after a checkpoint of it (`undoCheckpointId`).
     * With conflicts and neither option nothing is written and it fails with `WorktreeConflicts`
     * (`data.conflicts`: the paths). Files both sides changed in different places are merged hunk by hunk.
     * `resolutions` settle conflicts one by one (a side, or the text from the merge editor); a resolution
     * for a path that no longer conflicts fails with `WorktreeConflicts`. Of the rest, `skipConflicts`
     * leaves them as the main tree has them; `overwriteConflicts` writes the worktree's version. A git
     * worktree keeps its branch.
     */
    merge: {
      input: z
        .object({ ...Target, skipConflicts: z.boolean().optional(), overwriteConflicts: z.boolean().optional(), resolutions: z.array(MergeResolution).optional() })
        .strict(),
      output: MergeResult,
    },
    /**
     * Deletes the worktree folder (and for git the `git worktree` entry and its branch, unless `keepBranch`).
     * Refuses with `WorktreeUnmerged` (`data.changedFiles`) while it has changes not merged back, unless `force`.
     * Running turns in it are stopped first.
     */
    remove: {
      input: z.object({ ...Target, force: z.boolean().optional(), keepBranch: z.boolean().optional() }).strict(),
      output: z.object({ removed: z.boolean(), branchKept: z.boolean() }),
    },
  },
  events: {
    /**
     * A worktree of the project was created, changed status (a session started or ended, files changed,
     * merged) or was removed (`worktree: null`). Published in the main project's scope.
     */
    changed: z.object({ projectId: ProjectId, name: WorktreeName, worktree: Worktree.nullable() }),
  },
  /** What its methods can fail with, besides the failures of any call (`CallErrors`). */
  errors: [
    'WorktreeExists', 'WorktreeMissing', 'WorktreeRunning', 'WorktreeConflicts', 'WorktreeUnmerged',
    'WorktreeNoPorts', 'GitFailed', 'NotFound', 'ProjectBusy', 'ProjectNotOpen',
  ],
} satisfies DomainContract<'worktree'>
