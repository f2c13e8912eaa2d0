import type { HotaruBridge } from '@shared/ipc'
import type { TerminalInfo, TerminalOutput } from '@shared/schema/terminal'
import { errorMessage, unwrap } from '../../ipc'
import { shownChatProject, tabOf, worktreeOfProject } from '../../stores/chat-scope'
import { existingProjectStore, onProjectDropped, type ProjectStore } from '../../stores/project'
import { terminalKey as key } from '../../stores/project-terminals'
import { onResync } from '../../stores/resync'
import { workspace } from '../../stores/workspace'
import type { TerminalTab } from '../../stores/project-terminals'
import { TerminalSession } from './session'
import { loadXterm } from './xterm'
import { background } from '../../lib/background'

const sessions = new Map<string, TerminalSession>()
/** The tab (main project id) each session's terminal is listed in. */
const tabs = new Map<string, string>()
/** What a terminal without a replay (it failed) continues from. */
const NO_REPLAY = { data: '', end: 0, sizes: [] }
/** Find bar requests from inside a terminal, per project. */
const findListeners = new Map<string, () => void>()
let routedBridge: HotaruBridge | null = null

/** One subscription per bridge routes every terminal's output to its session. */
function route(bridge: HotaruBridge): void {
  if (routedBridge === bridge) return
  routedBridge = bridge
  bridge.pty.onData(({ projectId, payload }) => {
    // Over `serve` the output arrives as bytes with its length in characters (`TerminalOutput`).
    const output: TerminalOutput = payload
    if (projectId) sessions.get(key(projectId, output.id))?.receive(output.data, output.offset, output.chars)
  })
  bridge.pty.onExit(({ projectId, payload }) => {
    if (!projectId) return
    const k = key(projectId, payload.id)
    sessions.get(k)?.markExited(payload.exitCode)
    existingProjectStore(tabs.get(k) ?? tabOf(projectId))?.getState().updateTerminal(k, { exit: { exitCode: payload.exitCode } })
  })
}

export function sessionOf(projectId: string, id: string): TerminalSession | undefined {
  return sessions.get(key(projectId, id))
}

export function onFindRequest(projectId: string, listener: () => void): () => void {
  findListeners.set(projectId, listener)
  return () => {
    if (findListeners.get(projectId) === listener) findListeners.delete(projectId)
  }
}

/** The session of terminal `info` of `projectId` (the tab's main folder or one of its worktrees). */
async function sessionFor(store: ProjectStore, projectId: string, info: TerminalInfo): Promise<TerminalSession> {
  const { bridge, projectId: tabId } = store.getState()
  const k = key(projectId, info.id)
  const existing = sessions.get(k)
  if (existing) return existing
  const modules = await loadXterm()
  const again = sessions.get(k)
  if (again) return again
  const session = new TerminalSession(modules, bridge, projectId, info.id, {
    onTitle: (title) => store.getState().updateTerminal(k, { title: title || shellName(info.shell) }),
    onFind: () => findListeners.get(tabId)?.(),
  })
  sessions.set(k, session)
  tabs.set(k, tabId)
  route(bridge)
  return session
}

function tabFor(store: ProjectStore, projectId: string, info: TerminalInfo): TerminalTab {
  const { root } = store.getState()
  return {
    key: key(projectId, info.id),
    projectId,
    id: info.id,
    pid: info.pid,
    title: shellName(info.shell),
    where: worktreeOfProject(projectId)?.name ?? folderName(root),
    exit: info.exit ? { exitCode: info.exit.exitCode } : null,
  }
}

function folderName(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? path
}

function disposeSession(k: string): void {
  sessions.get(k)?.dispose()
  sessions.delete(k)
  tabs.delete(k)
}

function shellName(shell: string): string {
  return shell.split(/[\\/]/).pop()?.replace(/\.exe$/i, '') ?? 'shell'
}

/** Estimated grid of the terminal panel, so the shell starts at (nearly) its final size. */
function estimateSize(): { cols: number; rows: number } {
  const host = document.querySelector<HTMLElement>('.project:not([hidden]) .terminal-host')
  const width = host?.clientWidth ?? 800
  const height = host?.clientHeight ?? 240
  return { cols: Math.max(20, Math.floor(width / 7.8)), rows: Math.max(5, Math.floor(height / 17)) }
}

/**
 * Starts a shell, shows the terminal panel and focuses it. Without `cwd` it starts where the tab's chat
 * works: the worktree whose chat the tab shows, else the main folder; `cwd` is a folder of `folderId` (the
 * tab's main folder, or one of its worktrees).
 */
export async function openTerminal(store: ProjectStore, cwd = '', folderId?: string): Promise<void> {
  const state = store.getState()
  state.setView({ terminal: true })
  const projectId = cwd ? (folderId ?? state.projectId) : shownChatProject(state.projectId)
  try {
    const info = await unwrap(state.bridge.pty.create({ projectId, ...estimateSize(), cwd: cwd || undefined }))
    await sessionFor(store, projectId, info)
    store.getState().addTerminal(tabFor(store, projectId, info))
  } catch (error) {
    workspace.showError(`Could not start a terminal: ${errorMessage(error)}`)
  }
}

/** Ends the terminal's process and closes its tab (`k`: its key in the tab). */
export async function closeTerminal(store: ProjectStore, k: string): Promise<void> {
  const { bridge, terminals } = store.getState()
  const tab = terminals.find((t) => t.key === k)
  if (!tab) return
  const result = await bridge.pty.kill({ projectId: tab.projectId, id: tab.id })
  if (!result.ok) console.warn(`[terminal] kill ${k}:`, result.error.data.message)
  disposeSession(k)
  store.getState().removeTerminal(k)
}

/** Closes the tabs of terminals whose worktree is gone (its processes ended with its project in the core). */
export function forgetTerminals(store: ProjectStore, projects: string[]): void {
  for (const tab of store.getState().terminals) {
    if (projects.includes(tab.projectId)) continue
    disposeSession(tab.key)
    store.getState().removeTerminal(tab.key)
  }
}

/**
 * Re-attaches to the terminals of `projectId` (the tab's main folder or one of its worktrees) that are still
 * running in the core (after a page reload or a reconnect), repainting each from its recent output.
 */
export async function restoreTerminals(store: ProjectStore, projectId = store.getState().projectId): Promise<void> {
  const { bridge } = store.getState()
  const listed = await bridge.pty.list({ projectId })
  if (!listed.ok) {
    console.warn('[terminal] cannot list terminals:', listed.error.data.message)
    return
  }
  for (const info of listed.value) {
    const known = sessions.has(key(projectId, info.id))
    const session = await sessionFor(store, projectId, info)
    if (!known) {
      session.beginReplay()
      const replay = await bridge.pty.replay({ projectId, id: info.id })
      session.finishReplay(replay.ok ? replay.value : NO_REPLAY)
      if (info.exit) session.markExited(info.exit.exitCode)
    }
    store.getState().addTerminal(tabFor(store, projectId, info))
  }
}

/** Terminal sessions as tests and benchmarks see them (text is drawn to a canvas, not the DOM). */
export function inspectTerminals(): {
  projectId: string
  id: string
  received: number
  processed: number
  renderer: string
  cols: number
  rows: number
}[] {
  return [...sessions.values()].map((s) => ({
    projectId: s.projectId,
    id: s.id,
    cols: s.term.cols,
    rows: s.term.rows,
    received: s.received,
    processed: s.processed,
    renderer: s.renderer,
  }))
}

/** The text of every terminal's buffer (scrollback included); costly, so separate from the counters. */
export function inspectTerminalText(): string[] {
  return [...sessions.values()].map((s) => s.text())
}

onProjectDropped((projectId) => {
  for (const [k, session] of sessions) {
    if (session.projectId === projectId || tabs.get(k) === projectId) disposeSession(k)
  }
  findListeners.delete(projectId)
})

onResync(() => {
  // Output sent while disconnected is gone from the stream; the replay buffer has it.
  for (const session of sessions.values()) {
    session.beginReplay()
    background('pty.replay', routedBridge?.pty.replay({ projectId: session.projectId, id: session.id }).then((result) => {
      if (!result.ok) {
        session.finishReplay(NO_REPLAY)
        return
      }
      session.term.reset()
      session.finishReplay(result.value)
    }))
  }
})
