import { useCallback, useEffect, useRef, useState } from 'react'
import type { HotaruBridge, MethodOutput } from '@shared/ipc'
import type { ModelSummary } from '@shared/ipc/agent'
import { errorMessage, unwrap } from '../../ipc'
import { background } from '../../lib/background'
import { useSettingsDialog } from './settings-state'

type Provider = MethodOutput<'settings', 'providers'>[number]

const SOURCE: Record<Provider['keySource'], string> = {
  env: 'from the environment',
  config: 'from your settings file',
  secret: 'stored in the app',
  placeholder: 'placeholder (local server)',
  none: 'no key',
}

function ProviderRow({ bridge, provider, models, onChanged }: { bridge: HotaruBridge; provider: Provider; models: ModelSummary[]; onChanged(): void }) {
  const [key, setKey] = useState('')
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null)
  const [busy, setBusy] = useState(false)
  const model = models.find((m) => m.providerId === provider.id)?.id
  // Opened from "Add key": the cursor waits in this provider's key field.
  const wanted = useSettingsDialog((s) => s.keyFor === provider.id)
  const keyField = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (!wanted || !keyField.current) return
    keyField.current.scrollIntoView({ block: 'center' })
    keyField.current.focus()
  }, [wanted])
  const run = async (action: () => Promise<string>): Promise<void> => {
    setBusy(true)
    try {
      setNote({ ok: true, text: await action() })
    } catch (error) {
      setNote({ ok: false, text: errorMessage(error) })
    } finally {
      setBusy(false)
    }
  }
  const save = (): Promise<void> =>
    run(async () => {
      const { protection } = await unwrap(bridge.settings.setApiKey({ providerId: provider.id, apiKey: key }))
      setKey('')
      onChanged()
      return `Key saved, protected by ${protection}.`
    })
  const remove = (): Promise<void> =>
    run(async () => {
      const { deleted } = await unwrap(bridge.settings.deleteApiKey({ providerId: provider.id }))
      onChanged()
      return deleted ? 'Removed the stored key.' : 'No key was stored.'
    })
  const test = (): Promise<void> =>
    run(async () => {
      if (!model) throw new Error('no model of this provider to test with')
      const result = await unwrap(bridge.settings.testConnection({ model }))
      if (!result.ok) throw new Error(`${result.error?.name ?? 'Error'}: ${result.error?.message ?? 'failed'}`)
      return `Connected to ${model} in ${result.latencyMs} ms.`
    })
  return (
    <li className="provider" data-testid="provider" data-provider={provider.id} data-key-source={provider.keySource}>
      <div className="mcp-row">
        <span className="mcp-name">{provider.name}</span>
        <span className={`mcp-state ${provider.keySource === 'none' && provider.requiresKey ? 'mcp-failed' : 'mcp-connected'}`}>{SOURCE[provider.keySource]}</span>
        <span className="muted mcp-meta mono" title={provider.baseURL}>
          {provider.baseURL}
        </span>
      </div>
      {provider.envKeys.length > 0 && <div className="muted provider-env">Environment: {provider.envKeys.map((k) => <code key={k}>{k}</code>)}</div>}
      {provider.requiresKey && (
        <form
          className="mcp-row"
          onSubmit={(e) => {
            e.preventDefault()
            if (key.trim()) background('save', save())
          }}
        >
          <input ref={keyField} type="password" className="provider-key" placeholder="API key" value={key} onChange={(e) => setKey(e.target.value)} autoComplete="off" aria-label={`${provider.name} API key`} />
          <button type="submit" className="small" disabled={busy || !key.trim()}>
            Save
          </button>
          {provider.keySource === 'secret' && (
            <button type="button" className="small ghost" disabled={busy} onClick={() => background('remove', remove())}>
              Remove
            </button>
          )}
          <button type="button" className="small ghost" disabled={busy || !model} onClick={() => background('test', test())} title={model ? `Send a tiny request to ${model}` : undefined}>
            Test
          </button>
        </form>
      )}
      {note && <div className={note.ok ? 'muted' : 'error'}>{note.text}</div>}
    </li>
  )
}

/** Providers: where each key comes from, storing a key in the app's secret store, and a test request. */
export function Providers({ bridge, models }: { bridge: HotaruBridge | null; models: ModelSummary[] }) {
  const [providers, setProviders] = useState<Provider[] | null>(null)
  const [store, setStore] = useState<MethodOutput<'settings', 'secretStore'> | null>(null)
  const [error, setError] = useState<string | null>(null)
  const load = useCallback(() => {
    if (!bridge) return
    background('bridge.settings.providers', bridge.settings.providers({}).then((result) => {
      if (result.ok) setProviders(result.value)
      else setError(result.error.data.message)
    }))
    background('bridge.settings.secretStore', bridge.settings.secretStore({}).then((result) => {
      if (result.ok) setStore(result.value)
      else setError(result.error.data.message)
    }))
  }, [bridge])
  useEffect(load, [load])
  return (
    <div className="settings-section" data-testid="settings-providers">
      <p className="muted">
        A key is taken from the environment first, then your settings file, then the app’s key store (the system keychain in the desktop app). Keys stored
        here never go into a settings file.
      </p>
      {store && (
        <p className={store.encrypted ? 'muted' : 'warn-text'} data-testid="secret-store" data-encrypted={store.encrypted}>
          Stored keys: {store.protection}.
          {!store.encrypted && ' Anyone who can read your data folder can read them; prefer environment variables or an OS keyring.'}
        </p>
      )}
      {error && <p className="error">{error}</p>}
      {!providers && !error && <p className="muted">Loading…</p>}
      {providers && bridge && (
        <ul className="mcp-list">
          {providers.map((p) => (
            <ProviderRow key={p.id} bridge={bridge} provider={p} models={models} onChanged={load} />
          ))}
        </ul>
      )}
    </div>
  )
}
