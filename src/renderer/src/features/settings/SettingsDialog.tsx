import { useMemo, useState } from 'react'
import { createStore, useStore } from 'zustand'
import { Modal } from '../../components/Modal'
import { formatShortcut } from '../../lib/keys'
import { setThemePreference, themePreference, type ThemePreference } from '../../lib/theme'
import { chatFor, type ChatController } from '../../stores/chat'
import { setPreferences, usePreferences } from '../../stores/preferences'
import { initialChatState } from '../../stores/project-chat'
import { useWorkspace } from '../../stores/workspace'
import { allCommands } from '../commands'
import { McpServers } from './McpServers'
import { Permissions } from './Permissions'
import { Providers } from './Providers'
import { Sandbox } from './Sandbox'
import { TrustSettings } from '../trust'
import { closeSettings, useSettingsDialog, type SettingsSection } from './settings-state'

/** Stands in for a project's chat when no project is open (selectors still need a store). */
const EMPTY_STORE = createStore(() => initialChatState(''))

const SECTIONS: { id: SettingsSection; label: string }[] = [
  { id: 'general', label: 'Appearance' },
  { id: 'models', label: 'Model & agent' },
  { id: 'permissions', label: 'Permissions' },
  { id: 'mcp', label: 'MCP servers' },
  { id: 'sandbox', label: 'Sandbox' },
  { id: 'providers', label: 'Providers' },
  { id: 'trust', label: 'Workspace trust' },
  { id: 'keys', label: 'Shortcuts' },
]

function Appearance() {
  const [theme, setTheme] = useState<ThemePreference>(themePreference)
  const choose = (value: ThemePreference): void => {
    setTheme(value)
    setThemePreference(value)
  }
  return (
    <div className="settings-section" role="radiogroup" aria-label="Theme">
      <h4>Theme</h4>
      {(['system', 'light', 'dark'] as const).map((value) => (
        <label key={value} className="settings-radio">
          <input type="radio" name="theme" value={value} checked={theme === value} onChange={() => choose(value)} data-testid={`theme-${value}`} />
          {value === 'system' ? 'Follow the system' : value === 'light' ? 'Light' : 'Dark'}
        </label>
      ))}
    </div>
  )
}

function ModelDefaults({ chat }: { chat: ChatController | null }) {
  const prefs = usePreferences()
  const bridge = useWorkspace((s) => s.bridge)
  const models = useStore(chat?.store ?? EMPTY_STORE, (s) => s.models)
  const agents = useStore(chat?.store ?? EMPTY_STORE, (s) => s.agents)
  const primary = agents.filter((a) => a.mode === 'primary')
  return (
    <div className="settings-section">
      <p className="muted">
        Used for new sessions; each session keeps its own choice, and the pickers under the chat input change it. Saved in your config file
        {prefs.file ? <code> {prefs.file}</code> : ''} (a project’s hotaru.json can override them).
      </p>
      {prefs.error && (
        <p className="error" role="alert">
          {prefs.error}
        </p>
      )}
      <label className="settings-field">
        <span>Default model</span>
        <select value={prefs.defaultModel ?? ''} onChange={(e) => bridge && void setPreferences(bridge, { defaultModel: e.target.value || null })} data-testid="settings-model">
          <option value="">Not set (built-in default, or the project’s)</option>
          {models.map((m) => (
            <option key={m.id} value={m.id}>
              {m.id} — {Math.round(m.context / 1000)}k context
            </option>
          ))}
        </select>
      </label>
      <label className="settings-field">
        <span>Default agent</span>
        <select value={prefs.defaultAgent ?? ''} onChange={(e) => bridge && void setPreferences(bridge, { defaultAgent: e.target.value || null })} data-testid="settings-agent">
          <option value="">Not set (build, or the project’s)</option>
          {primary.map((a) => (
            <option key={a.name} value={a.name}>
              {a.name} — {a.description}
            </option>
          ))}
        </select>
      </label>
    </div>
  )
}

function Shortcuts() {
  const rows = useMemo(() => allCommands().filter((c) => c.keys).sort((a, b) => `${a.category}${a.title}`.localeCompare(`${b.category}${b.title}`)), [])
  return (
    <div className="settings-section">
      <table className="settings-table">
        <tbody>
          {rows.map((c) => (
            <tr key={c.id}>
              <td>
                {c.category}: {c.title}
              </td>
              <td>
                <kbd>{formatShortcut(c.keys ?? '')}</kbd>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** Settings: theme, default model and agent, MCP servers of the active project, providers, shortcuts. */
export function SettingsDialog() {
  const open = useSettingsDialog((s) => s.open)
  const section = useSettingsDialog((s) => s.section)
  const activeId = useWorkspace((s) => s.activeId)
  const bridge = useWorkspace((s) => s.bridge)
  if (!open) return null
  const chat = activeId && bridge ? chatFor(bridge, activeId) : null
  return (
    <Modal title="Settings" onCancel={closeSettings} testId="settings-dialog" className="settings-modal">
      <div className="settings-body">
        <nav className="settings-nav" aria-label="Settings sections">
          {SECTIONS.map((s) => (
            <button
              key={s.id}
              type="button"
              className={s.id === section ? 'ghost active' : 'ghost'}
              aria-current={s.id === section}
              onClick={() => useSettingsDialog.setState({ section: s.id })}
              data-testid={`settings-nav-${s.id}`}
            >
              {s.label}
            </button>
          ))}
        </nav>
        <div className="settings-content">
          {section === 'general' && <Appearance />}
          {section === 'models' && <ModelDefaults chat={chat} />}
          {section === 'permissions' &&
            (chat && bridge && activeId ? (
              <Permissions bridge={bridge} projectId={activeId} sessionId={chat.store.getState().activeSessionId} />
            ) : (
              <p className="muted">Open a project to see its permission rules.</p>
            ))}
          {section === 'mcp' && (chat ? <McpServers chat={chat} /> : <p className="muted">Open a project to see its MCP servers.</p>)}
          {section === 'sandbox' && <Sandbox bridge={bridge} projectId={activeId} />}
          {section === 'providers' && <Providers bridge={bridge} models={chat?.store.getState().models ?? []} />}
          {section === 'trust' && <TrustSettings bridge={bridge} projectId={activeId} />}
          {section === 'keys' && <Shortcuts />}
        </div>
      </div>
      <div className="modal-actions">
        <button type="button" className="primary" onClick={closeSettings}>
          Done
        </button>
      </div>
    </Modal>
  )
}
