import { ProjectLayout } from '@shared/schema/layout'
import type { KvRepo } from '../storage/kv-repo'

const layoutKey = (projectId: string): string => `layout.project.${projectId}`
const ACTIVE_KEY = 'workspace.activeProject'

/** Per-project UI arrangement and the active tab, kept in the kv table. */
export class LayoutStore {
  constructor(private readonly kv: KvRepo) {}

  get(projectId: string): ProjectLayout | null {
    const stored = this.kv.get<unknown>(layoutKey(projectId))
    if (stored === undefined) return null
    // A layout saved by another build may not fit the schema: start fresh rather than fail the tab.
    const parsed = ProjectLayout.safeParse(stored)
    if (!parsed.success) {
      console.warn(`[layout] discarding an unreadable layout for project ${projectId}`)
      return null
    }
    return parsed.data
  }

  set(projectId: string, layout: ProjectLayout): void {
    this.kv.set(layoutKey(projectId), layout)
  }

  activeProject(): string | null {
    return this.kv.get<string>(ACTIVE_KEY) ?? null
  }

  setActiveProject(projectId: string | null): void {
    if (projectId === null) this.kv.delete(ACTIVE_KEY)
    else this.kv.set(ACTIVE_KEY, projectId)
  }
}
