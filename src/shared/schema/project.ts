import { z } from 'zod'

export const ProjectId = z.string().regex(/^[a-z0-9]{12,40}$/, 'project id')

export const ProjectInfo = z.object({
  id: ProjectId,
  /** Absolute, symlink-resolved folder path. */
  root: z.string(),
  name: z.string(),
  /** Set (in `project.list`) while the folder is not at `root`: the tab shows it as missing. */
  missing: z.boolean().optional(),
})
export type ProjectInfo = z.infer<typeof ProjectInfo>

export const RecentProject = ProjectInfo.extend({
  lastOpenedAt: z.number().int(),
  /** False when the folder no longer exists on disk. */
  exists: z.boolean(),
})
export type RecentProject = z.infer<typeof RecentProject>
