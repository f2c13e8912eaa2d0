import { create } from 'zustand'
import type { AppInfo } from '@shared/ipc/app'
import type { HotaruBridge } from '@shared/ipc'
import type { ProjectInfo, RecentProject } from '@shared/schema/project'
import { errorMessage, IpcError, unwrap, type ConnectionState } from '../ipc'
import { loadPreferences } from './preferences'
import { absoluteParent, relativeInside } from '../lib/paths'
import { dropProjectStore } from './project'
import { emitResync, onResync } from './resync'
import { background } from '../lib/background'

/** What a tab's status dot shows; set by the features that know (agent, permissions). */
export type ProjectStatus = 'idle' | 'running' | 'waiting' | 'error'

/** A modal the workspace shows: the folder-path prompt (browser UI), or nothing. */
export interface OpenPathRequest {
  /** Why we ask, e.g. a dropped folder whose path the browser does not reveal. */
  reason?: string
  initial?: string
  /** The missing project this path locates (its tab is reopened there) instead of opening a new tab. */
  locate?: string
}

export interface WorkspaceState {
  bridge: HotaruBridge | null
  connection: ConnectionState
  connectionDetail?: string
  info?: AppInfo
  projects: ProjectInfo[]
  activeId: string | null
  recent: RecentProject[]
  status: Record<string, ProjectStatus>
  /** How many top-level sessions of each project have a turn running. */
  running: Record<string, number>
  /** Projects whose folder is not at its path (deleted, renamed away, unmounted) until it returns or is located. */
  missing: Record<string, true>
  paletteOpen: boolean
  /** Quick Open (Mod+P): go to a file of the active project by name. */
  quickOpen: boolean
  openPath: OpenPathRequest | null
  /** The last failed user action, shown until dismissed. */
  error?: string
}

export const useWorkspace = create<WorkspaceState>(() => ({
  bridge: null,
  connection: 'connecting',
  projects: [],
  activeId: null,
  recent: [],
  status: {},
  running: {},
  missing: {},
  paletteOpen: false,
  quickOpen: false,
  openPath: null,
}))

const get = useWorkspace.getState
const set = useWorkspace.setState

function bridge(): HotaruBridge {
  const b = get().bridge
  if (!b) throw new Error('not connected')
  return b
}

async function attempt(action: () => Promise<void>): Promise<void> {
  try {
    await action()
  } catch (error) {
    set({ error: errorMessage(error) })
  }
}

/** Saves tab order and the active tab so the next start restores them. */
function persistTabs(): void {
  const { projects, activeId, bridge: b } = get()
  if (!b) return
  background('b.layout.setTabs', b.layout.setTabs({ order: projects.map((p) => p.id), activeId }).then((result) => {
    if (!result.ok) console.warn('[workspace] could not save the tab order:', result.error.data.message)
  }))
}

function setMissing(projectId: string, missing: boolean): void {
  set((s) => {
    if (Boolean(s.missing[projectId]) === missing) return s
    if (missing) return { missing: { ...s.missing, [projectId]: true } }
    const { [projectId]: _back, ...rest } = s.missing
    return { missing: rest }
  })
}

/** Actions live outside the store state so components select data only. */
export const workspace = {
  async init(b: HotaruBridge): Promise<void> {
    set({ bridge: b })
    b.project.onOpened(({ payload }) => {
      set((s) => (s.projects.some((p) => p.id === payload.id) ? s : { projects: [...s.projects, payload] }))
      background('workspace.refreshRecent', workspace.refreshRecent())
    })
    b.project.onPresence(({ payload }) => setMissing(payload.projectId, payload.state === 'missing'))
    b.project.onClosed(({ payload }) => {
      set((s) => {
        const index = s.projects.findIndex((p) => p.id === payload.projectId)
        const projects = s.projects.filter((p) => p.id !== payload.projectId)
        // Like closing an editor tab: the neighbour to the right (else left) becomes active.
        const neighbour = projects[Math.min(Math.max(index, 0), projects.length - 1)]?.id ?? null
        const activeId = s.activeId === payload.projectId ? neighbour : s.activeId
        const { [payload.projectId]: _gone, ...status } = s.status
        const { [payload.projectId]: _count, ...running } = s.running
        const { [payload.projectId]: _missing, ...missing } = s.missing
        return { projects, activeId, status, running, missing }
      })
      dropProjectStore(payload.projectId)
    })
    await workspace.load()
  },

  /** (Re)reads the open tabs; on a new connection this also subscribes it to their events. */
  async load(): Promise<void> {
    await attempt(async () => {
      const b = bridge()
      background('loadPreferences', loadPreferences(b))
      const [info, projects, recent, tabs] = await Promise.all([
        unwrap(b.app.info({})),
        unwrap(b.project.list({})),
        unwrap(b.project.recent({})),
        unwrap(b.layout.getTabs({})),
      ])
      set((s) => ({
        info,
        projects,
        recent,
        missing: Object.fromEntries(projects.filter((p) => p.missing).map((p) => [p.id, true as const])),
        activeId: s.activeId && projects.some((p) => p.id === s.activeId) ? s.activeId : tabs.activeId,
      }))
    })
  },

  setConnection(connection: ConnectionState, connectionDetail?: string): void {
    const before = get().connection
    set({ connection, connectionDetail })
    if (connection === 'open' && before === 'reconnecting') {
      // A new socket shows no project until it lists them; then every project catches up.
      background('workspace.load', workspace.load().then(emitResync))
    }
  },

  onResync,

  async refreshRecent(): Promise<void> {
    await attempt(async () => set({ recent: await unwrap(bridge().project.recent({})) }))
  },

  async openFolder(path: string): Promise<ProjectInfo | null> {
    let opened: ProjectInfo | null = null
    await attempt(async () => {
      const project = await unwrap(bridge().project.open({ path }))
      set((s) => ({
        projects: s.projects.some((p) => p.id === project.id) ? s.projects : [...s.projects, project],
        activeId: project.id,
        error: undefined,
        openPath: null,
      }))
      opened = project
      persistTabs()
      await workspace.refreshRecent()
    })
    return opened
  },

  /**
   * A path dropped on the window (desktop app): a folder opens as a project; a
   * file opens in the project that contains it, or its folder opens as one.
   * Returns the project and the file to show, if any.
   */
  async openDropped(path: string): Promise<{ project: ProjectInfo; file: string | null } | null> {
    const b = bridge()
    const result = await b.project.open({ path })
    if (result.ok) {
      const project = result.value
      set((s) => ({
        projects: s.projects.some((p) => p.id === project.id) ? s.projects : [...s.projects, project],
        activeId: project.id,
      }))
      persistTabs()
      return { project, file: null }
    }
    if (result.error.name !== 'NotADirectory') {
      set({ error: new IpcError(result.error).message })
      return null
    }
    const holder = get().projects.find((p) => relativeInside(p.root, path) !== null)
    if (holder) {
      workspace.activate(holder.id)
      return { project: holder, file: relativeInside(holder.root, path) }
    }
    const project = await workspace.openFolder(absoluteParent(path))
    return project ? { project, file: relativeInside(project.root, path) } : null
  },

  async pickFolder(): Promise<void> {
    if (!get().info?.capabilities.pickFolder) {
      workspace.askForPath({})
      return
    }
    await attempt(async () => {
      const { path } = await unwrap(bridge().project.pickFolder({}))
      if (path) await workspace.openFolder(path)
    })
  },

  /**
   * Asks where the folder of a missing project is now (the native dialog, else the path prompt) and
   * reopens the project there, in the same tab position.
   */
  async locate(projectId: string): Promise<void> {
    const project = get().projects.find((p) => p.id === projectId)
    if (!project) return
    if (!get().info?.capabilities.pickFolder) {
      workspace.askForPath({ locate: projectId, reason: `Where is ${project.name} now? Enter the folder's new path.`, initial: project.root })
      return
    }
    await attempt(async () => {
      const { path } = await unwrap(bridge().project.pickFolder({}))
      if (path) await workspace.locateAt(projectId, path)
    })
  },

  /** Reopens the missing project `projectId` at `path`, in its tab's position. */
  async locateAt(projectId: string, path: string): Promise<void> {
    const index = get().projects.findIndex((p) => p.id === projectId)
    await attempt(async () => {
      const located = await unwrap(bridge().project.locate({ projectId, path }))
      set((s) => {
        const projects = s.projects.filter((p) => p.id !== located.id && p.id !== projectId)
        projects.splice(index < 0 ? projects.length : Math.min(index, projects.length), 0, located)
        return { projects, activeId: located.id, openPath: null, error: undefined }
      })
      persistTabs()
      await workspace.refreshRecent()
    })
  },

  askForPath(request: OpenPathRequest | null): void {
    set({ openPath: request })
  },

  async close(projectId: string): Promise<void> {
    await attempt(async () => {
      await unwrap(bridge().project.close({ projectId }))
    })
  },

  async forget(projectId: string): Promise<void> {
    await attempt(async () => {
      await unwrap(bridge().project.forget({ projectId }))
      await workspace.refreshRecent()
    })
  },

  activate(projectId: string | null): void {
    if (get().activeId === projectId) return
    set({ activeId: projectId })
    persistTabs()
  },

  /** Moves the tab `projectId` to position `index` (tab drag and drop). */
  moveTab(projectId: string, index: number): void {
    const projects = [...get().projects]
    const from = projects.findIndex((p) => p.id === projectId)
    if (from < 0) return
    const [moved] = projects.splice(from, 1)
    if (!moved) return
    projects.splice(Math.max(0, Math.min(index, projects.length)), 0, moved)
    set({ projects })
    persistTabs()
  },

  cycleTab(step: 1 | -1): void {
    const { projects, activeId } = get()
    if (projects.length === 0) return
    const index = projects.findIndex((p) => p.id === activeId)
    const next = projects[(index + step + projects.length) % projects.length]
    if (next) workspace.activate(next.id)
  },

  /** The agent and permission features report each project's state here for the tab's status dot. */
  setProjectStatus(projectId: string, status: ProjectStatus, running: number): void {
    set((s) =>
      s.status[projectId] === status && (s.running[projectId] ?? 0) === running
        ? s
        : { status: { ...s.status, [projectId]: status }, running: { ...s.running, [projectId]: running } },
    )
  },

  setQuickOpen(open: boolean): void {
    set({ quickOpen: open, ...(open ? { paletteOpen: false } : {}) })
  },
  setPaletteOpen(open: boolean): void {
    set({ paletteOpen: open, ...(open ? { quickOpen: false } : {}) })
  },

  showError(message: string): void {
    set({ error: message })
  },

  dismissError(): void {
    set({ error: undefined })
  },
}
