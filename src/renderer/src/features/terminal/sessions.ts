import type { HotaruBridge } from '@shared/ipc'
import type { TerminalInfo } from '@shared/schema/terminal'
import { errorMessage, unwrap } from '../../ipc'
import { existingProjectStore, onProjectDropped, type ProjectStore } from '../../stores/project'
import { onResync } from '../../stores/resync'
import { workspace } from '../../stores/workspace'
import { TerminalSession } from './session'
import { loadXterm } from './xterm'
import { background } from '../../lib/background'

const sessions = new Map<string, TerminalSession>()
/** What a terminal without a replay (it failed) continues from. */
const NO_REPLAY = { data: '', end: 0, sizes: [] }
const key = (projectId: string, id: string) => `${projectId}/${id}`
/** Find bar requests from inside a terminal, per project. */
const findListeners = new Map<string, () => void>()
let routedBridge: HotaruBridge | null = null

/** One subscription per bridge routes every terminal's output to its session. */
function route(bridge: HotaruBridge): void {
  if (routedBridge === bridge) return
  routedBridge = bridge
  bridge.pty.onData(({ projectId, payload }) => {
    if (projectId) sessions.get(key(projectId, payload.id))?.receive(payload.data, payload.offset)
  })
  bridge.pty.onExit(({ projectId, payload }) => {
    if (!projectId) return
    sessions.get(key(projectId, payload.id))?.markExited(payload.exitCode)
    existingProjectStore(projectId)?.getState().updateTerminal(payload.id, { exit: { exitCode: payload.exitCode } })
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

async function sessionFor(store: ProjectStore, info: TerminalInfo): Promise<TerminalSession> {
  const { bridge, projectId } = store.getState()
  const existing = sessions.get(key(projectId, info.id))
  if (existing) return existing
  const modules = await loadXterm()
  const again = sessions.get(key(projectId, info.id))
  if (again) return again
  const session = new TerminalSession(modules, bridge, projectId, info.id, {
    onTitle: (title) => store.getState().updateTerminal(info.id, { title: title || shellName(info.shell) }),
    onFind: () => findListeners.get(projectId)?.(),
  })
  sessions.set(key(projectId, info.id), session)
  route(bridge)
  return session
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

/** Starts a shell in `cwd` ('' = project root), shows the terminal panel and focuses it. */
export async function openTerminal(store: ProjectStore, cwd = ''): Promise<void> {
  const state = store.getState()
  state.setView({ terminal: true })
  try {
    const info = await unwrap(state.bridge.pty.create({ projectId: state.projectId, ...estimateSize(), cwd: cwd || undefined }))
    await sessionFor(store, info)
    store.getState().addTerminal({ id: info.id, pid: info.pid, title: shellName(info.shell), exit: null })
  } catch (error) {
    workspace.showError(`Could not start a terminal: ${errorMessage(error)}`)
  }
}

/** Ends the terminal's process and closes its tab. */
export async function closeTerminal(store: ProjectStore, id: string): Promise<void> {
  const { bridge, projectId } = store.getState()
  const result = await bridge.pty.kill({ projectId, id })
  if (!result.ok) console.warn(`[terminal] kill ${id}:`, result.error.data.message)
  sessions.get(key(projectId, id))?.dispose()
  sessions.delete(key(projectId, id))
  store.getState().removeTerminal(id)
}

/**
 * Re-attaches to the project's terminals that are still running in the core
 * (after a page reload or a reconnect), repainting each from its recent output.
 */
export async function restoreTerminals(store: ProjectStore): Promise<void> {
  const { bridge, projectId } = store.getState()
  const listed = await bridge.pty.list({ projectId })
  if (!listed.ok) {
    console.warn('[terminal] cannot list terminals:', listed.error.data.message)
    return
  }
  for (const info of listed.value) {
    const known = sessions.has(key(projectId, info.id))
    const session = await sessionFor(store, info)
    if (!known) {
      session.beginReplay()
      const replay = await bridge.pty.replay({ projectId, id: info.id })
      session.finishReplay(replay.ok ? replay.value : NO_REPLAY)
      if (info.exit) session.markExited(info.exit.exitCode)
    }
    store.getState().addTerminal({
      id: info.id,
      pid: info.pid,
      title: shellName(info.shell),
      exit: info.exit ? { exitCode: info.exit.exitCode } : null,
    })
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
    if (session.projectId !== projectId) continue
    session.dispose()
    sessions.delete(k)
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
