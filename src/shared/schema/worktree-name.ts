import { z } from 'zod'

/**
 * A worktree's name: also its folder name and, for git, the branch `hotaru/<name>`.
 * Letters, digits, `.`, `_`, `-`; no `..`, no `.lock` ending (git refuses those as branch names).
 * Its own module: `hotaru run --worktree` checks a name before anything else loads.
 */
export const WorktreeName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'letters, digits, ".", "_" and "-" only, starting with a letter or digit')
  .refine((n) => !n.includes('..') && !n.endsWith('.lock'), 'must not contain ".." or end with ".lock"')
export type WorktreeName = z.infer<typeof WorktreeName>
