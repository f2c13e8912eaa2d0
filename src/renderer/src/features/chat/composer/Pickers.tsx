import { useMemo } from 'react'
import type { Effort } from '@shared/schema/effort'
import type { ModelSummary } from '@shared/ipc/agent'
import { useShallow } from 'zustand/react/shallow'
import { useChat, useChatController } from '../../../stores/chat'
import { usePreferences } from '../../../stores/preferences'
import { useLocalModels } from '../../../stores/local-models'
import { missingKey, useProviderKeys } from '../../../stores/provider-keys'
import { openKeySetup } from '../../settings'

/** Option values that open a provider's key setup instead of picking a model. */
const SETUP_PREFIX = 'setup:'

/**
 * Agent, model and effort of the next prompt: the session's, unless the user picks others here.
 * `effort` undefined: nobody chose one (the config's or the model's default applies).
 */
export function usePicked(sessionId: string | null): { agent: string; model: string; effort?: Effort } {
  const choice = useChat((s) => s.choices[sessionId ?? ''])
  const session = useChat((s) => (sessionId ? s.sessions[sessionId] : undefined))
  const prefs = usePreferences()
  return {
    agent: choice?.agent ?? session?.agent ?? prefs.defaultAgent ?? 'build',
    model: choice?.model ?? session?.model ?? prefs.defaultModel ?? '',
    ...((choice?.effort ?? session?.effort) ? { effort: choice?.effort ?? session?.effort } : {}),
  }
}

const EFFORT_LABELS: Record<Effort, string> = { off: 'Thinking off', low: 'Low effort', medium: 'Medium effort', high: 'High effort', max: 'Max effort' }

/** How one model entry reads in the picker: its name, and a warning when the provider deprecated it. */
function modelLabel(m: ModelSummary | undefined, fallback: string): string {
  const name = m?.name ?? fallback
  const d = m?.deprecation
  if (!d) return name
  const successor = d.successor.slice(d.successor.indexOf('/') + 1)
  return d.retired ? `${name} — retired, use ${successor}` : `${name} — deprecated (until ${d.retiresOn}), use ${successor}`
}

/**
 * The reasoning effort beside the model picker: only the levels the current model takes;
 * disabled (with the reason as a tooltip) for models without a choice. The pick is sent
 * with the next message and remembered by the session.
 */
export function EffortPicker({ sessionId }: { sessionId: string | null }) {
  const chat = useChatController()
  const { model, effort } = usePicked(sessionId)
  const info = useChat((s) => s.models.find((m) => m.id === model))
  const efforts = info?.efforts ?? []
  if (!info || efforts.length === 0) {
    const reason = !info
      ? 'Effort: the model is not in the catalog; it runs with its own default'
      : info.reasoning
        ? `${info.name} always reasons; there is no effort to pick`
        : `${info.name} does not reason`
    return (
      <select className="picker picker-effort" disabled value="" aria-label="Reasoning effort" title={reason} data-testid="effort-picker">
        <option value="">{info?.reasoning ? 'Thinking on' : 'No thinking'}</option>
      </select>
    )
  }
  const label = (level: Effort): string => (info.effortToggle && level !== 'off' ? 'Thinking on' : EFFORT_LABELS[level])
  // A level picked for another model shows as the one this model will use.
  const shown = effort && efforts.includes(effort) ? effort : ''
  return (
    <select
      className="picker picker-effort"
      value={shown}
      onChange={(e) => chat.setChoice(sessionId, { effort: e.target.value === '' ? undefined : (e.target.value as Effort) })}
      aria-label="Reasoning effort"
      title="How hard the model reasons before it answers (remembered by this session)"
      data-testid="effort-picker"
    >
      <option value="">Default ({label(info.defaultEffort)})</option>
      {efforts.map((level) => (
        <option key={level} value={level}>
          {label(level)}
        </option>
      ))}
    </select>
  )
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
    for (const m of models) byProvider.set(m.providerId, [...(byProvider.get(m.providerId) ?? []), { id: m.id, name: modelLabel(m, m.id) }])
    // Models a local runtime said it serves, beside the catalog's.
    for (const runtime of local) {
      const listed = byProvider.get(runtime.providerId) ?? []
      const found = runtime.models.filter((id) => !listed.some((m) => m.id === id)).map((id) => ({ id, name: id }))
      if (found.length > 0) byProvider.set(runtime.providerId, [...listed, ...found])
    }
    return [...byProvider.entries()]
  }, [models, local])
  // Providers without a key are not listed model by model: one entry each says what is missing and leads to the key field.
  const ready = groups.filter(([provider]) => !missingKey(providers, `${provider}/x`))
  const locked = groups.filter(([provider]) => missingKey(providers, `${provider}/x`))
  const known = model === '' || ready.some(([, list]) => list.some((m) => m.id === model))
  return (
    <select
      className="picker"
      value={model}
      onChange={(e) => {
        const value = e.target.value
        if (value.startsWith(SETUP_PREFIX)) {
          openKeySetup(value.slice(SETUP_PREFIX.length))
          return
        }
        chat.setChoice(sessionId, { model: value || undefined })
      }}
      aria-label="Model"
      data-testid="model-picker"
    >
      {model === '' && <option value="">Default model</option>}
      {!known && <option value={model}>{missingKey(providers, model) ? `${model} (needs a key)` : model}</option>}
      {ready.map(([provider, list]) => (
        <optgroup key={provider} label={provider}>
          {list.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name}
            </option>
          ))}
        </optgroup>
      ))}
      {locked.length > 0 && (
        <optgroup label="Needs an API key">
          {locked.map(([provider, list]) => (
            <option key={provider} value={`${SETUP_PREFIX}${provider}`} data-testid="model-setup">
              {provider}: {list.length} model{list.length === 1 ? '' : 's'} — add a key…
            </option>
          ))}
        </optgroup>
      )}
    </select>
  )
}
