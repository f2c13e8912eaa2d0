import { z } from 'zod'
import { ProjectId } from '../schema/project'
import { DirListing, FileContent, RelativePath } from '../schema/fs'
import type { DomainContract } from './define'

export const fsContract = {
  methods: {
    /** One directory level, directories first; `.git` is never listed. */
    list: { input: z.object({ projectId: ProjectId, path: RelativePath }).strict(), output: DirListing },
    read: { input: z.object({ projectId: ProjectId, path: RelativePath }).strict(), output: FileContent },
  },
  events: {},
} satisfies DomainContract<'fs'>
