import type { StoreApi } from 'zustand'
import type { HotaruBridge } from '@shared/ipc'
import type { PreviewNavigation } from '@shared/ipc/preview'
import type { PreviewConsoleEntry, PreviewStatus } from '@shared/schema/preview'
import { projectMirror } from '../../stores/project-mirror'
import { debounce } from '../../lib/debounce'
import { useWorkspace } from '../../stores/workspace'

export type DeviceId = 'desktop' | 'tablet' | 'phone'

/** Sizes of the page for the device presets; the desktop fills the pane. */
export const DEVICES: Record<DeviceId, { label: string; width: number | null; height: number | null }> = {
  desktop: { label: 'Desktop', width: null, height: null },
  tablet: { label: 'Tablet (768×1024)', width: 768, height: 1024 },
  phone: { label: 'Phone (390×844)', width: 390, height: 844 },
}

/** How many console messages a pane keeps (the newest). */
export const CONSOLE_LIMIT = 200
/** Saving a file often writes several: one reload after they settle. */
const AUTO_RELOAD_MS = 300

export interface PreviewState {
  /** The pane is shown in the project's tab (kept by the tab's main project). */
  open: boolean
  /** What the address bar holds (the user may be typing). */
  address: string
  /** The page shown, as the dev server names it; null before one was opened. */
  url: string | null
  /** What the iframe loads under `serve` (the page through the preview origin); null in the desktop app. */
  frameUrl: string | null
  title: string
  canGoBack: boolean
  canGoForward: boolean
  loading: boolean
  error: string | null
  device: DeviceId
  /** Reload the page when a file of the project changes. */
  autoReload: boolean
  console: PreviewConsoleEntry[]
  consoleOpen: boolean
  /** The folder's dev server (started from the pane, the agent or the CLI); null until read. */
  server: PreviewStatus | null
}

export type PreviewStore = StoreApi<PreviewState>

/** The page's history and reload, as the surface showing it does them (the app's view or the frame). */
export interface PreviewController {
  go(action: 'back' | 'forward' | 'reload'): void
}

const stores = new Map<string, PreviewStore>()
const controllers = new Map<string, PreviewController>()

export function initialPreview(): PreviewState {
  return {
    open: false,
    address: '',
    url: null,
    frameUrl: null,
    title: '',
    canGoBack: false,
    canGoForward: false,
    loading: false,
    error: null,
    device: 'desktop',
    autoReload: true,
    console: [],
    consoleOpen: false,
    server: null,
  }
}

export function addConsole(state: PreviewState, message: PreviewConsoleEntry): Partial<PreviewState> {
  const console = [...state.console, message]
  return { console: console.length > CONSOLE_LIMIT ? console.slice(console.length - CONSOLE_LIMIT) : console }
}

export function applyNavigation(state: PreviewState, nav: PreviewNavigation): Partial<PreviewState> {
  return {
    url: nav.url,
    // The address bar follows the page unless the user is mid-edit of another address.
    address: state.address === state.url || state.address === '' ? nav.url : state.address,
    title: nav.title,
    canGoBack: nav.canGoBack,
    canGoForward: nav.canGoForward,
    loading: nav.loading,
    error: nav.error ?? null,
  }
}

/** The surface on screen registers how it moves its page; returns the unregister. */
export function registerController(projectId: string, controller: PreviewController): () => void {
  controllers.set(projectId, controller)
  return () => {
    if (controllers.get(projectId) === controller) controllers.delete(projectId)
  }
}

export function goPreview(projectId: string, action: 'back' | 'forward' | 'reload'): void {
  controllers.get(projectId)?.go(action)
}

/**
 * The Preview of one folder (a project, or a worktree of one): its page, history,
 * console and device. The desktop app's view reports navigation and console through
 * `preview` events; file changes in the folder reload the page.
 */
export function previewFor(bridge: HotaruBridge, projectId: string): PreviewStore {
  return projectMirror(stores, projectId, {
    what: 'preview',
    initial: initialPreview,
    // The page lives in the client's surface; core knows the dev server.
    reload: async (store) => {
      const status = await bridge.preview.status({ projectId })
      if (status.ok) store.setState({ server: status.value })
      else console.warn(`[preview] cannot read the dev server of ${projectId}:`, status.error.data.message)
    },
    events: (store) => {
      const reloadSoon = debounce(() => {
        const s = store.getState()
        if (s.autoReload && s.url && !s.error) goPreview(projectId, 'reload')
      }, AUTO_RELOAD_MS)
      return [
        bridge.preview.onNavigated(({ projectId: id, payload }) => {
          if (id === projectId) store.setState((s) => applyNavigation(s, payload))
        }),
        bridge.preview.onStatus(({ projectId: id, payload }) => {
          if (id === projectId) store.setState({ server: payload })
        }),
        // The desktop app's page is the preview's own browser, so its console is the preview's. Under `serve`
        // that log is the agent's headless browser: the pane lists its own frame's messages instead.
        bridge.preview.onConsole(({ projectId: id, payload }) => {
          if (id !== projectId || useWorkspace.getState().info?.transport !== 'electron') return
          // The pane lists what needs attention; the agent's log keeps every level.
          if (payload.entry.level === 'error' || payload.entry.level === 'warning') store.setState((s) => addConsole(s, payload.entry))
        }),
        bridge.fs.onChanged(({ projectId: id, payload }) => {
          if (id === projectId && payload.changes.length > 0) reloadSoon()
        }),
        () => reloadSoon.cancel(),
      ]
    },
  })
}
