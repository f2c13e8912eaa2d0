import { z } from 'zod'
import { ProjectId } from '../schema/project'
import { SearchFileResult, SearchQuery, SearchSummary } from '../schema/search'
import type { DomainContract } from './define'

const SearchId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'search id')

export const searchContract = {
  methods: {
    /** Every file of the project (gitignore-aware), for Quick Open and @-mentions. */
    files: { input: z.object({ projectId: ProjectId }).strict(), output: z.object({ files: z.array(z.string()), truncated: z.boolean() }) },
    /** Starts a find in files; results arrive as `results` events (grouped by file), then one `done`. */
    text: { input: z.object({ projectId: ProjectId, searchId: SearchId, query: SearchQuery }).strict(), output: z.object({ started: z.boolean() }) },
    cancel: { input: z.object({ searchId: SearchId }).strict(), output: z.object({ cancelled: z.boolean() }) },
  },
  events: {
    results: z.object({ searchId: z.string(), files: z.array(SearchFileResult) }),
    done: SearchSummary.extend({ searchId: z.string() }),
  },
  /** What its methods can fail with, besides the failures of any call (`CallErrors`). */
  errors: [
    'Unsupported', 'ProjectNotOpen',
  ],
} satisfies DomainContract<'search'>
