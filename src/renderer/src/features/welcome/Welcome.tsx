import { PathInput } from '../../components/PathInput'
import { useEffect, useState, type FormEvent } from 'react'
import type { HotaruBridge } from '@shared/ipc'
import { usePreferences } from '../../stores/preferences'
import { loadProviderKeys, missingKey, useProviderKeys } from '../../stores/provider-keys'
import { ProviderSetup } from '../settings'
import { useSettingsDialog } from '../settings/settings-state'
import { useShallow } from 'zustand/react/shallow'
import { useWorkspace, workspace } from '../../stores/workspace'
import { background } from '../../lib/background'
import { Icon } from '../../components/Icon'

function timeAgo(ms: number): string {
  const minutes = Math.round((Date.now() - ms) / 60000)
  if (minutes < 1) return 'just now'
  if (minutes < 60) return `${minutes} min ago`
  const hours = Math.round(minutes / 60)
  if (hours < 24) return `${hours} h ago`
  return new Date(ms).toLocaleDateString()
}

/** The model a new session uses when none is configured. */
const BUILT_IN_DEFAULT = 'anthropic/claude-sonnet-5-5'

/**
 * First run: the default model's provider has no key. Before any folder is open, the welcome says so and leads
 * to the key field, or to a model running on this computer (Ollama, LM Studio). Gone once a key or model is set.
 */
function ModelSetup({ bridge }: { bridge: HotaruBridge }) {
  const providers = useProviderKeys((s) => s.providers)
  const defaultModel = usePreferences((s) => s.defaultModel)
  const settingsOpen = useSettingsDialog((s) => s.open)
  useEffect(() => {
    if (!settingsOpen) background('loadProviderKeys', loadProviderKeys(bridge))
  }, [bridge, settingsOpen])
  const provider = missingKey(providers, defaultModel ?? BUILT_IN_DEFAULT)
  if (!provider) return null
  return (
    <section className="welcome-setup" aria-labelledby="setup-title" data-testid="welcome-setup">
      <h2 id="setup-title">Connect a model</h2>
      <p className="muted">
        The agent needs a model to work with. Add an API key for {provider.name} (it is kept in this app&apos;s secret store), or use a model
        running on this computer with Ollama or LM Studio.
      </p>
      <ProviderSetup bridge={bridge} providerId={provider.id} addLabel={`Add ${provider.name} API key`} />
    </section>
  )
}

/** Shown when no project tab is active: open a folder or pick a recent one. */
export function Welcome() {
  const canPick = useWorkspace((s) => s.info?.capabilities.pickFolder ?? false)
  const recent = useWorkspace(useShallow((s) => s.recent))
  const [path, setPath] = useState('')
  const bridge = useWorkspace((s) => s.bridge)

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault()
    if (path.trim() && (await workspace.openFolder(path.trim()))) setPath('')
  }

  return (
    <main className="welcome" data-testid="welcome">
      <h1>Hotaru</h1>
      <p className="muted">Open a folder to start working with the agent.</p>
      {bridge && <ModelSetup bridge={bridge} />}
      {canPick && (
        <button type="button" className="primary" onClick={() => background('workspace.pickFolder', workspace.pickFolder())} data-testid="pick-folder">
          Open Folder…
        </button>
      )}
      <form className="open-path" onSubmit={(e) => background('submit', submit(e))}>
        <label htmlFor="open-path-input">{canPick ? 'Or type a folder path' : 'Folder path'}</label>
        <div className="row">
          <PathInput
            id="open-path-input"
            data-testid="open-path-input"
            value={path}
            onChange={setPath}
            placeholder="~/projects/app"
            spellCheck={false}
            autoComplete="off"
          />
          <button type="submit" className={canPick ? '' : 'primary'} disabled={!path.trim()} data-testid="open-path-submit">
            Open
          </button>
        </div>
      </form>
      <section className="recent" aria-labelledby="recent-title">
        <h2 id="recent-title">Recent</h2>
        {recent.length === 0 && <p className="muted">No recent projects yet.</p>}
        <ul data-testid="recent-list">
          {recent.map((project) => (
            <li key={project.id} className={project.exists ? '' : 'missing'}>
              <button
                type="button"
                className="link"
                disabled={!project.exists}
                title={project.exists ? project.root : `${project.root} (folder not found)`}
                onClick={() => background('workspace.openFolder', workspace.openFolder(project.root))}
              >
                <span className="name">{project.name}</span>
                <span className="path">{project.root}</span>
              </button>
              <span className="when">{timeAgo(project.lastOpenedAt)}</span>
              <button
                type="button"
                className="icon"
                aria-label={`Remove ${project.name} from recent projects`}
                title="Remove from recent"
                onClick={() => background('workspace.forget', workspace.forget(project.id))}
              >
                <Icon name="close" />
              </button>
            </li>
          ))}
        </ul>
      </section>
    </main>
  )
}
