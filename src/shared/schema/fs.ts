import { z } from 'zod'

/**
 * A path inside a project: relative, `/`-separated, '' for the root.
 * Absolute paths and `..` segments are refused here; symlink escapes are
 * refused by the workspace boundary in core.
 */
export const RelativePath = z
  .string()
  .max(4096)
  .refine((p) => !p.startsWith('/') && !/^[a-zA-Z]:/.test(p) && !p.includes('\\'), 'must be relative and use "/"')
  .refine((p) => p.split('/').every((s) => s !== '..'), 'must not contain ".." segments')
  .refine((p) => !p.includes('\0'), 'must not contain NUL')

export const EntryKind = z.enum(['file', 'dir', 'symlink', 'other'])

export const DirEntry = z.object({
  name: z.string(),
  path: z.string(),
  kind: EntryKind,
  /** For symlinks: what the link points at, when it resolves inside the project. */
  targetKind: EntryKind.optional(),
  size: z.number(),
  mtimeMs: z.number(),
  /** Matched by .gitignore rules or the default excludes; shown dimmed. */
  ignored: z.boolean(),
})
export type DirEntry = z.infer<typeof DirEntry>

export const DirListing = z.object({ path: z.string(), entries: z.array(DirEntry) })
export type DirListing = z.infer<typeof DirListing>

export const FileContent = z.object({
  path: z.string(),
  size: z.number(),
  binary: z.boolean(),
  /** True when the file exceeded the read cap; `content` then holds the head. */
  truncated: z.boolean(),
  content: z.string(),
  mtimeMs: z.number(),
})
export type FileContent = z.infer<typeof FileContent>
