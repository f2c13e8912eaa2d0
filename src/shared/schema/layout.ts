import { z } from 'zod'
import { ProjectId } from './project'
import { RelativePath } from './fs'

/** Panel id → size in percent of its group, as react-resizable-panels reports it. */
export const PanelSizes = z.record(z.string().max(64), z.number().min(0).max(100))

/** Everything about a project tab's arrangement that should survive a restart. */
export const ProjectLayout = z.object({
  panels: z.object({
    /** Horizontal split: file tree | editor+terminal | right-hand panel. */
    main: PanelSizes.optional(),
    /** Vertical split: editor | terminal panel. */
    center: PanelSizes.optional(),
  }),
  sidebar: z.boolean(),
  terminal: z.boolean(),
  /** The right-hand panel (the chat) is shown. */
  right: z.boolean(),
  openFiles: z.array(RelativePath).max(200),
  activeFile: RelativePath.nullable(),
  expanded: z.array(RelativePath).max(5000),
  diffSideBySide: z.boolean(),
})
export type ProjectLayout = z.infer<typeof ProjectLayout>

export const WorkspaceTabs = z.object({
  /** Open projects in tab order. */
  order: z.array(ProjectId).max(200),
  activeId: ProjectId.nullable(),
})
export type WorkspaceTabs = z.infer<typeof WorkspaceTabs>
