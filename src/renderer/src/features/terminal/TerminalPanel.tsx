import { useEffect, useRef, useState } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { formatShortcut } from '../../lib/keys'
import { projectsOfTab, useChatScope } from '../../stores/chat-scope'
import { useProject, useProjectStore } from '../../stores/project'
import type { TerminalTab } from '../../stores/project-terminals'
import { closeTerminal, forgetTerminals, onFindRequest, openTerminal, restoreTerminals, sessionOf } from './sessions'
import { background } from '../../lib/background'
import { Icon } from '../../components/Icon'

/** Mounts the (long-lived) xterm of a terminal into the panel and keeps it fitted. */
function TerminalView({ tab: { projectId, id }, active }: { tab: TerminalTab; active: boolean }) {
  const host = useRef<HTMLDivElement>(null)
  const [ready, setReady] = useState(false)

  useEffect(() => {
    const el = host.current
    const session = sessionOf(projectId, id)
    if (!el || !session) return
    session.attach(el)
    setReady(true)
    const observer = new ResizeObserver(() => session.fitSoon())
    observer.observe(el)
    return () => observer.disconnect()
  }, [projectId, id])

  useEffect(() => {
    if (!active || !ready) return
    const session = sessionOf(projectId, id)
    session?.fitSoon()
    session?.focus()
  }, [active, ready, projectId, id])

  return <div ref={host} className={`terminal-view${active ? '' : ' hidden'}`} data-testid="terminal-view" data-terminal-id={id} />
}

function FindBar({ tab: { projectId, id }, onClose }: { tab: TerminalTab; onClose(): void }) {
  const [query, setQuery] = useState('')
  const [found, setFound] = useState<boolean | null>(null)
  const input = useRef<HTMLInputElement>(null)
  useEffect(() => input.current?.focus(), [])
  const find = (backwards: boolean): void => {
    const session = sessionOf(projectId, id)
    if (!session || !query) return
    const options = { decorations: { matchOverviewRuler: '#888', activeMatchColorOverviewRuler: '#d9730d' } }
    setFound(backwards ? session.search.findPrevious(query, options) : session.search.findNext(query, options))
  }
  const close = (): void => {
    const session = sessionOf(projectId, id)
    session?.search.clearDecorations()
    onClose()
    session?.focus()
  }
  return (
    <div className="terminal-find" role="search">
      <input
        ref={input}
        value={query}
        placeholder="Find"
        aria-label="Find in terminal"
        className={found === false ? 'not-found' : ''}
        onChange={(e) => {
          setQuery(e.target.value)
          setFound(null)
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') find(e.shiftKey)
          else if (e.key === 'Escape') close()
          else return
          e.preventDefault()
          e.stopPropagation()
        }}
      />
      <button type="button" className="icon" aria-label="Previous match" onClick={() => find(true)}>
        <Icon name="arrow-up" />
      </button>
      <button type="button" className="icon" aria-label="Next match" onClick={() => find(false)}>
        <Icon name="arrow-down" />
      </button>
      <button type="button" className="icon" aria-label="Close find" onClick={close}>
        <Icon name="close" />
      </button>
    </div>
  )
}

/** The bottom panel: a tab per terminal of the project tab (its main folder's and its worktrees'), each a live shell. */
export function TerminalPanel() {
  const store = useProjectStore()
  const projectId = useProject((s) => s.projectId)
  const terminals = useProject(useShallow((s) => s.terminals))
  const activeTerminal = useProject((s) => s.activeTerminal)
  const [finding, setFinding] = useState(false)
  const listed = useChatScope((s) => s.worktrees[projectId] !== undefined)
  const projects = useChatScope(useShallow((s) => projectsOfTab(projectId, s)))
  const shownWorktree = useChatScope((s) => s.shown[projectId])
  const active = terminals.find((t) => t.key === activeTerminal)

  useEffect(() => {
    // Only once the worktrees are listed is a terminal of one that is missing known to be gone.
    if (listed) forgetTerminals(store, projects)
    for (const id of projects) background('restoreTerminals', restoreTerminals(store, id))
  }, [store, listed, projects])

  useEffect(() => onFindRequest(projectId, () => setFinding(true)), [projectId])

  // A dev server the preview starts (from its pane or by the agent) runs in a terminal of its own: its tab shows up.
  useEffect(
    () =>
      store.getState().bridge.preview.onStatus(({ projectId: id, payload }) => {
        if (!id || !payload.terminalId || !projects.includes(id)) return
        if (store.getState().terminals.some((t) => t.projectId === id && t.id === payload.terminalId)) return
        background('restoreTerminals', restoreTerminals(store, id))
      }),
    [store, projects],
  )

  return (
    <section className="terminal-panel" aria-label="Terminals" data-testid="terminal-panel">
      <div className="panel-head">
        <div className="terminal-tabs" role="tablist" aria-label="Terminals">
          {terminals.map((t) => (
            <div
              key={t.key}
              role="tab"
              aria-selected={t.key === activeTerminal}
              tabIndex={t.key === activeTerminal ? 0 : -1}
              className={`terminal-tab${t.key === activeTerminal ? ' active' : ''}${t.exit ? ' exited' : ''}`}
              data-testid="terminal-tab"
              data-terminal-id={t.id}
              data-pid={t.pid}
              title={`${t.title} in ${t.where} — pid ${t.pid}${t.exit ? ` — exited (${t.exit.exitCode})` : ''}`}
              onClick={() => store.getState().setActiveTerminal(t.key)}
              onAuxClick={(e) => {
                if (e.button === 1) background('closeTerminal', closeTerminal(store, t.key))
              }}
            >
              <span className="terminal-tab-name">{t.title}</span>
              <span className="terminal-tab-where muted" data-testid="terminal-tab-where">
                {t.where}
              </span>
              <button
                type="button"
                className="icon"
                aria-label={`Kill terminal ${t.title} in ${t.where}`}
                onClick={(e) => {
                  e.stopPropagation()
                  background('closeTerminal', closeTerminal(store, t.key))
                }}
              >
                <Icon name="close" />
              </button>
            </div>
          ))}
        </div>
        <div className="panel-actions">
          <button
            type="button"
            className="icon"
            aria-label="New terminal"
            title={`New terminal (${formatShortcut('Ctrl+Shift+`')})`}
            data-testid="new-terminal"
            onClick={() => background('openTerminal', openTerminal(store))}
          >
            +
          </button>
          <button
            type="button"
            className="icon"
            aria-label="Hide terminal panel"
            title={`Hide (${formatShortcut('Ctrl+`')})`}
            onClick={() => store.getState().setView({ terminal: false })}
          >
            <Icon name="chevron-down" />
          </button>
        </div>
      </div>
      <div className="terminal-host">
        {finding && active && <FindBar key={active.key} tab={active} onClose={() => setFinding(false)} />}
        {terminals.map((t) => (
          <TerminalView key={t.key} tab={t} active={t.key === activeTerminal} />
        ))}
        {terminals.length === 0 && (
          <div className="terminal-empty muted">
            <button type="button" className="link" onClick={() => background('openTerminal', openTerminal(store))}>
              Start a terminal
            </button>{' '}
            in {shownWorktree ? `the worktree ${shownWorktree}` : 'the project folder'} ({formatShortcut('Ctrl+Shift+`')}).
          </div>
        )}
      </div>
    </section>
  )
}
