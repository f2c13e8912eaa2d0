import './settings.css'
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { Icon } from '../../components/Icon'
import { openDialog } from '../../components/Modal'
import { chatFor, type ChatController } from '../../stores/chat'
import { useWorkspace } from '../../stores/workspace'
import type { HotaruBridge } from '@shared/ipc'
import { TrustSettings } from '../trust'
import { Appearance } from './Appearance'
import { McpServers } from './McpServers'
import { ModelDefaults } from './ModelDefaults'
import { Permissions } from './Permissions'
import { Providers } from './Providers'
import { Sandbox } from './Sandbox'
import { sectionsMatching, type SectionInfo } from './settings-search'
import { closeSettings, useSettingsDialog, type SettingsSection } from './settings-state'
import { shortcutCommands, Shortcuts } from './Shortcuts'

interface Context {
  bridge: HotaruBridge | null
  projectId: string | null
  chat: ChatController | null
  query: string
}

function sectionBody(id: SettingsSection, { bridge, projectId, chat, query }: Context): ReactNode {
  if (id === 'general') return <Appearance />
  if (id === 'models') return <ModelDefaults chat={chat} />
  if (id === 'permissions') {
    if (!chat || !bridge || !projectId) return <p className="muted">Open a project to see its permission rules.</p>
    return <Permissions bridge={bridge} projectId={projectId} sessionId={chat.store.getState().activeSessionId} query={query} />
  }
  if (id === 'mcp') return chat ? <McpServers chat={chat} /> : <p className="muted">Open a project to see its MCP servers.</p>
  if (id === 'sandbox') return <Sandbox bridge={bridge} projectId={projectId} />
  if (id === 'providers') return <Providers bridge={bridge} models={chat?.store.getState().models ?? []} />
  if (id === 'trust') return <TrustSettings bridge={bridge} projectId={projectId} />
  return <Shortcuts query={query} />
}

function Section({ info, context }: { info: SectionInfo; context: Context }) {
  return (
    <section className="settings-section" aria-labelledby={`settings-heading-${info.id}`} data-testid={`settings-section-${info.id}`} id={`settings-section-${info.id}`}>
      <h3 id={`settings-heading-${info.id}`}>
        <Icon name={info.icon} /> {info.label}
      </h3>
      {sectionBody(info.id, context)}
    </section>
  )
}

/** The elements Tab stops at in the page, in order, for Tab to wrap around (the app behind is covered). */
function tabStops(root: HTMLElement): HTMLElement[] {
  const candidates = [...root.querySelectorAll<HTMLElement>('button, input, select, textarea, a[href], [tabindex]')]
  return candidates.filter((el) => {
    if (el.tabIndex < 0 || (el as HTMLButtonElement).disabled || el.offsetParent === null) return false
    // Tab stops at the checked radio of a group only.
    if (el instanceof HTMLInputElement && el.type === 'radio' && !el.checked) return !root.querySelector(`input[type="radio"][name="${el.name}"]:checked`)
    return true
  })
}

/**
 * Settings as a full-window page over the app (Escape or Done goes back): a search box that narrows every section
 * as you type, the sections down the side, the chosen one (or every section that matches) beside them. Mounted
 * only while open, so each visit starts with an empty search.
 */
export function SettingsPage() {
  const open = useSettingsDialog((s) => s.open)
  return open ? <OpenSettings /> : null
}

function OpenSettings() {
  const section = useSettingsDialog((s) => s.section)
  const keyFor = useSettingsDialog((s) => s.keyFor)
  const activeId = useWorkspace((s) => s.activeId)
  const bridge = useWorkspace((s) => s.bridge)
  const [query, setQuery] = useState('')
  const page = useRef<HTMLDivElement>(null)
  const search = useRef<HTMLInputElement>(null)
  const escapeRef = useRef<() => void>(closeSettings)
  const extra = useMemo(() => shortcutCommands().map((c) => ({ section: 'keys' as const, label: c.label, keys: [c.keys] })), [])

  // Holds the focus like any dialog: a late focus on the composer behind cannot take the keys (Escape) away.
  useEffect(() => (page.current ? openDialog(page.current) : undefined), [])
  useEffect(() => {
    // "Add key" puts the cursor in a key field (Providers focuses it); otherwise search is where typing goes.
    if (!keyFor) search.current?.focus()
  }, [keyFor])

  // Escape while the focus is nowhere (a deleted row's button took it along) still reaches the page.
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent): void => {
      if (e.key === 'Escape' && e.target === document.body) escapeRef.current()
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [])

  const chat = activeId && bridge ? chatFor(bridge, activeId) : null
  const context: Context = { bridge, projectId: activeId, chat, query }
  const searching = query.trim() !== ''
  const matching = sectionsMatching(query, extra)
  const current = matching.find((s) => s.id === section) ?? matching[0]

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    if (e.key === 'Escape') {
      e.stopPropagation()
      escape()
      return
    }
    if (e.key !== 'Tab' || !page.current) return
    const all = tabStops(page.current)
    const first = all[0]
    const last = all.at(-1)
    if (!first || !last) return
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault()
      last.focus()
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault()
      first.focus()
    }
  }
  // The first Escape clears a search (the cursor back in it), the next one leaves.
  const escape = (): void => {
    if (!searching) {
      closeSettings()
      return
    }
    setQuery('')
    search.current?.focus()
  }
  useEffect(() => {
    escapeRef.current = escape
  })
  const onNavKey = (e: KeyboardEvent<HTMLElement>): void => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return
    e.preventDefault()
    const buttons = [...e.currentTarget.querySelectorAll<HTMLButtonElement>('button')]
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement)
    const next = buttons[(at + (e.key === 'ArrowDown' ? 1 : buttons.length - 1)) % buttons.length]
    next?.focus()
    next?.click()
  }
  const choose = (id: SettingsSection): void => {
    useSettingsDialog.setState({ section: id })
    if (searching) document.getElementById(`settings-section-${id}`)?.scrollIntoView({ block: 'start' })
  }

  return (
    <div className="settings-page" ref={page} role="dialog" aria-modal="true" aria-label="Settings" data-testid="settings-dialog" onKeyDown={onKeyDown}>
      <header className="settings-header">
        <h2>
          <Icon name="settings-gear" /> Settings
        </h2>
        <div className="settings-search">
          <Icon name="search" />
          <input
            ref={search}
            type="search"
            aria-label="Search settings"
            placeholder="Search settings"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            data-testid="settings-search"
          />
        </div>
        <button type="button" className="primary" onClick={closeSettings}>
          Done
        </button>
      </header>
      <div className="settings-body">
        <nav className="settings-nav" aria-label="Settings sections" onKeyDown={onNavKey}>
          {matching.map((s) => (
            <button
              key={s.id}
              type="button"
              className={s.id === current?.id && !searching ? 'ghost active' : 'ghost'}
              aria-current={s.id === current?.id && !searching ? 'page' : undefined}
              onClick={() => choose(s.id)}
              data-testid={`settings-nav-${s.id}`}
            >
              <Icon name={s.icon} /> {s.label}
            </button>
          ))}
        </nav>
        <div className="settings-content" data-testid="settings-content">
          {searching ? (
            matching.length === 0 ? (
              <p className="muted" data-testid="settings-no-match">
                No settings match “{query}”.
              </p>
            ) : (
              matching.map((s) => <Section key={s.id} info={s} context={context} />)
            )
          ) : (
            current && <Section info={current} context={context} />
          )}
        </div>
      </div>
    </div>
  )
}
