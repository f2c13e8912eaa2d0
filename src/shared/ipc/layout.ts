import { z } from 'zod'
import { ProjectId } from '../schema/project'
import { ProjectLayout, WorkspaceTabs } from '../schema/layout'
import type { DomainContract } from './define'

export const layoutContract = {
  methods: {
    /** The saved arrangement of a project tab; null before it was first saved. */
    get: { input: z.object({ projectId: ProjectId }).strict(), output: ProjectLayout.nullable() },
    set: { input: z.object({ projectId: ProjectId, layout: ProjectLayout }).strict(), output: z.object({}) },
    /** Tab order and the active tab, restored on the next start. */
    getTabs: { input: z.object({}).strict(), output: WorkspaceTabs },
    setTabs: { input: WorkspaceTabs.strict(), output: WorkspaceTabs },
  },
  events: {},
  /** What its methods can fail with, besides the failures of any call (`CallErrors`). */
  errors: [
    'ProjectNotOpen', 'StorageUnavailable',
  ],
} satisfies DomainContract<'layout'>
