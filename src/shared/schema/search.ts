import { z } from 'zod'

export const SearchQuery = z.object({
  query: z.string().min(1).max(1000),
  regex: z.boolean().default(false),
  caseSensitive: z.boolean().default(false),
  wholeWord: z.boolean().default(false),
  /** Globs a file must match (any of them); a glob without `/` matches the file name anywhere. */
  include: z.array(z.string().min(1)).max(20).optional(),
  /** Globs of files and folders to leave out. */
  exclude: z.array(z.string().min(1)).max(20).optional(),
})
export type SearchQuery = z.infer<typeof SearchQuery>

export const SearchMatch = z.object({
  /** 1-based. */
  line: z.number(),
  /** The line (cut at 500 characters). */
  text: z.string(),
  /** Matched [start, end) character offsets in `text`. */
  ranges: z.array(z.tuple([z.number(), z.number()])),
})
export type SearchMatch = z.infer<typeof SearchMatch>

export const SearchFileResult = z.object({ path: z.string(), matches: z.array(SearchMatch) })
export type SearchFileResult = z.infer<typeof SearchFileResult>

export const SearchSummary = z.object({
  files: z.number(),
  matches: z.number(),
  /** Stopped at the match cap. */
  truncated: z.boolean(),
  cancelled: z.boolean(),
  /** ripgrep refused the search (e.g. an invalid regular expression). */
  error: z.string().optional(),
})
export type SearchSummary = z.infer<typeof SearchSummary>
