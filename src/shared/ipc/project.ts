import { z } from 'zod'
import { ProjectId, ProjectInfo, RecentProject } from '../schema/project'
import type { DomainContract } from './define'

const NoticeLevel = z.enum(['info', 'warning', 'error'])

/** A notice kept for the project's notices list: the same text published again counts up instead of repeating. */
export const ProjectNotice = z.object({
  id: z.string(),
  level: NoticeLevel,
  /** `project`: config and extension files; `mcp`: an MCP server's warning. */
  source: z.enum(['project', 'mcp']),
  message: z.string(),
  /** The file the notice is about (a broken skill, agent or tool file). */
  file: z.string().optional(),
  count: z.number().int().min(1),
  at: z.number(),
})
export type ProjectNotice = z.infer<typeof ProjectNotice>

/** Whether an open project's folder is at its path. */
export const ProjectPresence = z.object({ projectId: ProjectId, root: z.string(), state: z.enum(['missing', 'present']) })
export type ProjectPresence = z.infer<typeof ProjectPresence>

export const projectContract = {
  methods: {
    /** Opens a folder as a project tab (or returns the tab already open for it). */
    open: { input: z.object({ path: z.string().min(1).max(4096) }).strict(), output: ProjectInfo },
    close: { input: z.object({ projectId: ProjectId }).strict(), output: z.object({ closed: z.boolean() }) },
    /** Points a tab whose folder is missing at the folder's new place: opened there, in the same tab position. */
    locate: { input: z.object({ projectId: ProjectId, path: z.string().min(1).max(4096) }).strict(), output: ProjectInfo },
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
    /** The project's notices not dismissed yet, oldest first (those published before this client connected too). */
    notices: { input: z.object({ projectId: ProjectId }).strict(), output: z.array(ProjectNotice) },
    /** Dismisses notices (all without `ids`); the same text published again stays dismissed while the project is open. */
    dismissNotices: {
      input: z.object({ projectId: ProjectId, ids: z.array(z.string().min(1).max(100)).max(1000).optional() }).strict(),
      output: z.object({ dismissed: z.number() }),
    },
  },
  events: {
    opened: ProjectInfo,
    closed: z.object({ projectId: ProjectId }),
    /** Something the user should see about the project (a broken extension file, a failed server…). */
    notice: z.object({ projectId: ProjectId, level: NoticeLevel, message: z.string(), file: z.string().optional() }),
    /** The project's folder vanished (deleted, renamed away, unmounted) or is back at its path. */
    presence: ProjectPresence,
  },
  /** What its methods can fail with, besides the failures of any call (`CallErrors`). */
  errors: [
    'NotFound', 'NotADirectory', 'Unsupported', 'ProjectNotOpen', 'ProjectMissing', 'StorageUnavailable',
  ],
} satisfies DomainContract<'project'>
