import { useState } from 'react'
import type { HotaruBridge } from '@shared/ipc'
import type { LocalRuntime } from '@shared/ipc/settings'
import { background } from '../../lib/background'
import { useLocalModels } from '../../stores/local-models'
import { setPreferences } from '../../stores/preferences'
import { openKeySetup } from './settings-state'

type Search = { state: 'idle' } | { state: 'looking' } | { state: 'done'; runtimes: LocalRuntime[] } | { state: 'failed'; message: string }

/**
 * The two ways to a working model: "Add key" (Settings, the cursor in that provider's key field) or "Use a local
 * model": core asks Ollama and LM Studio at their ports for their models, and the one picked becomes the default
 * for new sessions (written to the user config) and is handed to `onPick`.
 */
export function ProviderSetup({ bridge, providerId, onPick, addLabel = 'Add key' }: { bridge: HotaruBridge; providerId: string; onPick?(model: string): void; addLabel?: string }) {
  const [search, setSearch] = useState<Search>({ state: 'idle' })
  const look = async (): Promise<void> => {
    setSearch({ state: 'looking' })
    const result = await bridge.settings.localModels({})
    if (result.ok) useLocalModels.setState({ runtimes: result.value })
    setSearch(result.ok ? { state: 'done', runtimes: result.value } : { state: 'failed', message: result.error.data.message })
  }
  const pick = async (model: string): Promise<void> => {
    onPick?.(model)
    setSearch({ state: 'idle' })
    await setPreferences(bridge, { defaultModel: model })
  }
  const found = search.state === 'done' ? search.runtimes.flatMap((r) => r.models) : []
  return (
    <>
      <span className="no-key-actions">
        <button type="button" className="small primary" onClick={() => openKeySetup(providerId)}>
          {addLabel}
        </button>
        <button type="button" className="small" onClick={() => background('localModels', look())} disabled={search.state === 'looking'}>
          Use a local model
        </button>
      </span>
      {search.state !== 'idle' && (
        <div className="local-models" role="group" aria-label="Local models">
          {search.state === 'looking' && <span className="muted">Looking for Ollama and LM Studio…</span>}
          {search.state === 'failed' && <span className="error">Could not look for local models: {search.message}</span>}
          {search.state === 'done' && (
            <>
              {search.runtimes.map((r) => (
                <div key={r.providerId} className="local-runtime">
                  <strong>{r.name}</strong>
                  {r.problem && <span className="muted"> — {r.problem}</span>}
                  {r.models.map((m) => (
                    <button key={m} type="button" className="small" onClick={() => background('pickLocalModel', pick(m))}>
                      {m}
                    </button>
                  ))}
                </div>
              ))}
              {found.length === 0 && <span className="muted">Start Ollama (ollama serve) or LM Studio&apos;s server with a model, then look again.</span>}
            </>
          )}
        </div>
      )}
    </>
  )
}
