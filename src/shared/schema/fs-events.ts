import { z } from 'zod'
import { DirEntry } from './fs'

/** One change seen by a project's watcher; renames arrive as `deleted` + `created`. */
export const FsChange = z.object({
  kind: z.enum(['created', 'deleted', 'changed']),
  path: z.string(),
  /** For created/changed: the entry as `fs.list` would report it. */
  entry: DirEntry.optional(),
})
export type FsChange = z.infer<typeof FsChange>

export const FsChanged = z.object({
  changes: z.array(FsChange),
  /**
   * Directories whose listings (and those below) are stale and should be fetched again: their ignore
   * rules changed (a `.gitignore` was edited), or `''` once the watcher has started (it may have missed
   * what changed while it did).
   */
  invalidated: z.array(z.string()),
})
export type FsChanged = z.infer<typeof FsChanged>

export const GitFileStatus = z.enum(['modified', 'added', 'deleted', 'renamed', 'untracked', 'conflicted'])
export type GitFileStatus = z.infer<typeof GitFileStatus>

export const GitStatus = z.object({
  /** False when the folder is not inside a git work tree (or git is not installed). */
  repo: z.boolean(),
  branch: z.string().nullable(),
  /**
   * Project-relative path → status. An untracked folder is reported once, as
   * `dir/` (with the slash), for everything below it.
   */
  files: z.record(z.string(), GitFileStatus),
  /** Why status is unavailable, when git failed. */
  error: z.string().optional(),
})
export type GitStatus = z.infer<typeof GitStatus>
