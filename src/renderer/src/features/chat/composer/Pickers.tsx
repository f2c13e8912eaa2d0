import { useMemo } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { useChat, useChatController } from '../../../stores/chat'
import { usePreferences } from '../../../stores/preferences'
import { useLocalModels } from '../../../stores/local-models'
import { missingKey, useProviderKeys } from '../../../stores/provider-keys'

/** Agent and model of the next prompt: the session's, unless the user picks others here. */
export function usePicked(sessionId: string | null): { agent: string; model: string } {
  const choice = useChat((s) => s.choices[sessionId ?? ''])
  const session = useChat((s) => (sessionId ? s.sessions[sessionId] : undefined))
  const prefs = usePreferences()
  return {
    agent: choice?.agent ?? session?.agent ?? prefs.defaultAgent ?? 'build',
    model: choice?.model ?? session?.model ?? prefs.defaultModel ?? '',
  }
}

export function AgentPicker({ sessionId }: { sessionId: string | null }) {
  const chat = useChatController()
  const agents = useChat(useShallow((s) => s.agents.filter((a) => a.mode === 'primary')))
  const { agent } = usePicked(sessionId)
  const names = agents.some((a) => a.name === agent) ? agents : [...agents, { name: agent, description: '', mode: 'primary' as const }]
  return (
    <select
      className="picker picker-agent"
      value={agent}
      onChange={(e) => chat.setChoice(sessionId, { agent: e.target.value })}
      aria-label="Agent"
      title={agents.find((a) => a.name === agent)?.description}
      data-testid="agent-picker"
    >
      {names.map((a) => (
        <option key={a.name} value={a.name}>
          {a.name}
        </option>
      ))}
    </select>
  )
}

export function ModelPicker({ sessionId }: { sessionId: string | null }) {
  const chat = useChatController()
  const models = useChat((s) => s.models)
  const providers = useProviderKeys((s) => s.providers)
  const local = useLocalModels((s) => s.runtimes)
  const { model } = usePicked(sessionId)
  const groups = useMemo(() => {
    const byProvider = new Map<string, { id: string; name: string }[]>()
    for (const m of models) byProvider.set(m.providerId, [...(byProvider.get(m.providerId) ?? []), { id: m.id, name: m.name }])
    // Models a local runtime said it serves, beside the catalog's.
    for (const runtime of local) {
      const listed = byProvider.get(runtime.providerId) ?? []
      const found = runtime.models.filter((id) => !listed.some((m) => m.id === id)).map((id) => ({ id, name: id }))
      if (found.length > 0) byProvider.set(runtime.providerId, [...listed, ...found])
    }
    return [...byProvider.entries()]
  }, [models, local])
  const known = model === '' || groups.some(([, list]) => list.some((m) => m.id === model))
  return (
    <select className="picker" value={model} onChange={(e) => chat.setChoice(sessionId, { model: e.target.value || undefined })} aria-label="Model" data-testid="model-picker">
      {model === '' && <option value="">Default model</option>}
      {!known && <option value={model}>{model}</option>}
      {groups.map(([provider, list]) => (
        <optgroup key={provider} label={missingKey(providers, `${provider}/x`) ? `${provider} (needs a key)` : provider}>
          {list.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name}
              {missingKey(providers, m.id) ? ' — no key' : ''}
            </option>
          ))}
        </optgroup>
      ))}
    </select>
  )
}
