import { createStore, useStore } from 'zustand'
import { Select } from '../../components/Select'
import type { ChatController } from '../../stores/chat'
import { setPreferences, usePreferences } from '../../stores/preferences'
import { initialChatState } from '../../stores/project-chat'
import { useWorkspace } from '../../stores/workspace'

/** Stands in for a project's chat when no project is open (selectors still need a store). */
const EMPTY_STORE = createStore(() => initialChatState(''))

/** The model and agent new sessions start with, saved in the user's settings file. */
export function ModelDefaults({ chat }: { chat: ChatController | null }) {
  const prefs = usePreferences()
  const bridge = useWorkspace((s) => s.bridge)
  const models = useStore(chat?.store ?? EMPTY_STORE, (s) => s.models)
  const agents = useStore(chat?.store ?? EMPTY_STORE, (s) => s.agents)
  const primary = agents.filter((a) => a.mode === 'primary')
  return (
    <>
      {prefs.error && (
        <p className="error" role="alert">
          {prefs.error}
        </p>
      )}
      <label className="settings-item">
        <span className="settings-item-head">
          <span className="settings-item-label">Default model</span>
          <span className="muted">The model new sessions start with; each session keeps its own, and the picker under the chat input changes it. A project’s own settings can choose another.</span>
        </span>
        <Select value={prefs.defaultModel ?? ''} onChange={(e) => bridge && void setPreferences(bridge, { defaultModel: e.target.value || null })} data-testid="settings-model">
          <option value="">Not set (the built-in default, or the project’s)</option>
          {models.map((m) => (
            <option key={m.id} value={m.id}>
              {m.id} — {Math.round(m.context / 1000)}k context
            </option>
          ))}
        </Select>
      </label>
      <label className="settings-item">
        <span className="settings-item-head">
          <span className="settings-item-label">Default agent</span>
          <span className="muted">The agent new sessions start with.</span>
        </span>
        <Select value={prefs.defaultAgent ?? ''} onChange={(e) => bridge && void setPreferences(bridge, { defaultAgent: e.target.value || null })} data-testid="settings-agent">
          <option value="">Not set (build, or the project’s)</option>
          {primary.map((a) => (
            <option key={a.name} value={a.name}>
              {a.name} — {a.description}
            </option>
          ))}
        </Select>
      </label>
      {prefs.file && (
        <p className="muted small-print">
          Saved in <code>{prefs.file}</code>
        </p>
      )}
    </>
  )
}
