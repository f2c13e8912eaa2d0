import { useState } from 'react'
import type { LocalRuntime } from '@shared/ipc/settings'
import { background } from '../../../lib/background'
import { useChatController } from '../../../stores/chat'
import { useLocalModels } from '../../../stores/local-models'
import { setPreferences } from '../../../stores/preferences'
import { useProject } from '../../../stores/project'
import { openSettings } from '../../settings'

type Search = { state: 'idle' } | { state: 'looking' } | { state: 'done'; runtimes: LocalRuntime[] } | { state: 'failed'; message: string }

/**
 * What to do without a key: "Add key" (the provider settings) or "Use a local model":
 * core asks Ollama and LM Studio at their ports for their models, and the one picked
 * becomes this chat's model and the default for new sessions (written to the user config).
 */
export function NoKeyActions({ sessionId }: { sessionId: string | null }) {
  const bridge = useProject((s) => s.bridge)
  const chat = useChatController()
  const [search, setSearch] = useState<Search>({ state: 'idle' })
  const look = async (): Promise<void> => {
    setSearch({ state: 'looking' })
    const result = await bridge.settings.localModels({})
    if (result.ok) useLocalModels.setState({ runtimes: result.value })
    setSearch(result.ok ? { state: 'done', runtimes: result.value } : { state: 'failed', message: result.error.data.message })
  }
  const pick = async (model: string): Promise<void> => {
    chat.setChoice(sessionId, { model })
    setSearch({ state: 'idle' })
    await setPreferences(bridge, { defaultModel: model })
  }
  const found = search.state === 'done' ? search.runtimes.flatMap((r) => r.models) : []
  return (
    <>
      <span className="no-key-actions">
        <button type="button" className="small primary" onClick={() => openSettings('providers')}>
          Add key
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
