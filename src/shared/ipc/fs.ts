import { z } from 'zod'
import { ProjectId } from '../schema/project'
import { DirEntry, DirListing, FileContent, RelativePath } from '../schema/fs'
import { FsChanged, GitStatus } from '../schema/fs-events'
import type { DomainContract } from './define'

const Target = z.object({ projectId: ProjectId, path: RelativePath }).strict()
/** Up to 50 MB of text per save (the editor holds at most a few MB). */
const MAX_WRITE_CHARS = 50 * 1024 * 1024

export const fsContract = {
  methods: {
    /** One directory level, directories first; `.git` is never listed. */
    list: { input: Target, output: DirListing },
    read: { input: Target, output: FileContent },
    /**
     * Writes a text file (creating it if needed). With `expectedMtimeMs`, refuses
     * with `Conflict` when the file changed on disk since it was read.
     */
    write: {
      input: z
        .object({
          projectId: ProjectId,
          path: RelativePath.refine((p) => p !== '', 'a file path is required'),
          content: z.string().max(MAX_WRITE_CHARS),
          expectedMtimeMs: z.number().optional(),
        })
        .strict(),
      output: z.object({ path: z.string(), size: z.number(), mtimeMs: z.number() }),
    },
    /** New empty file or folder; `AlreadyExists` if the name is taken. */
    create: {
      input: z
        .object({
          projectId: ProjectId,
          path: RelativePath.refine((p) => p !== '', 'a path is required'),
          kind: z.enum(['file', 'dir']),
        })
        .strict(),
      output: DirEntry,
    },
    /** Renames or moves inside the project; a symlink is renamed, not its target. */
    rename: {
      input: z
        .object({
          projectId: ProjectId,
          from: RelativePath.refine((p) => p !== '', 'a path is required'),
          to: RelativePath.refine((p) => p !== '', 'a path is required'),
        })
        .strict(),
      output: DirEntry,
    },
    /** Deletes a file, a link or a folder with everything in it. The project root cannot be deleted. */
    delete: {
      input: z
        .object({ projectId: ProjectId, path: RelativePath.refine((p) => p !== '', 'the project root cannot be deleted') })
        .strict(),
      output: z.object({ deleted: z.boolean() }),
    },
    gitStatus: { input: z.object({ projectId: ProjectId }).strict(), output: GitStatus },
    /** Shows the item in the OS file manager; `Unsupported` outside the desktop app. */
    reveal: { input: Target, output: z.object({}) },
  },
  events: {
    /** Batched watcher news for one project (gitignored folders are not watched). */
    changed: FsChanged,
    gitStatus: GitStatus,
  },
  /** What its methods can fail with, besides the failures of any call (`CallErrors`). */
  errors: [
    'Conflict', 'AlreadyExists', 'NotFound', 'NotADirectory', 'NotARegularFile', 'OutsideWorkspace',
    'ProjectNotOpen', 'ProjectMissing', 'Unsupported',
  ],
} satisfies DomainContract<'fs'>
