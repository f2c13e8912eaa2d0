import { z } from 'zod'
import { ProjectId, ProjectInfo, RecentProject } from '../schema/project'
import type { DomainContract } from './define'

export const projectContract = {
  methods: {
    /** Opens a folder as a project tab (or returns the tab already open for it). */
    open: { input: z.object({ path: z.string().min(1).max(4096) }).strict(), output: ProjectInfo },
    close: { input: z.object({ projectId: ProjectId }).strict(), output: z.object({ closed: z.boolean() }) },
    /** Folders completing a typed path (absolute or `~/…`), for the Open Folder field. */
    completePath: { input: z.object({ path: z.string().min(1).max(4096) }).strict(), output: z.object({ folders: z.array(z.string()) }) },
    /** The projects open in this workspace, in tab order. */
    list: { input: z.object({}).strict(), output: z.array(ProjectInfo) },
    recent: {
      input: z.object({ limit: z.number().int().min(1).max(200).optional() }).strict(),
      output: z.array(RecentProject),
    },
    /** Removes a folder from the recent list (nothing on disk is touched). */
    forget: { input: z.object({ projectId: ProjectId }).strict(), output: z.object({ forgotten: z.boolean() }) },
    /** Native folder dialog; `Unsupported` where there is none (browser UI). */
    pickFolder: { input: z.object({}).strict(), output: z.object({ path: z.string().nullable() }) },
  },
  events: {
    opened: ProjectInfo,
    closed: z.object({ projectId: ProjectId }),
    /** Something the user should see about the project (a broken extension file, a failed server…). */
    notice: z.object({ projectId: ProjectId, level: z.enum(['info', 'warning', 'error']), message: z.string() }),
  },
} satisfies DomainContract<'project'>
