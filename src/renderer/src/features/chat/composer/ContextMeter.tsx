import { Meter } from '../../../components/Meter'
import { useChat, type ChatState } from '../../../stores/chat'
import { contextTokens, formatTokens } from '../format'

/** Tokens of the session's latest step that reported usage (what the context holds now). */
function lastContextTokens(s: ChatState, sessionId: string): number {
  const t = s.transcripts[sessionId]
  if (!t) return 0
  for (let i = t.order.length - 1; i >= 0; i--) {
    const info = t.infos[t.order[i] ?? '']
    if (info?.role === 'assistant' && info.usage) return contextTokens(info.usage)
  }
  return 0
}

/** How full the model's context window is, from the last step's usage and the model's limit. */
export function ContextMeter({ sessionId, model }: { sessionId: string; model: string }) {
  const used = useChat((s) => lastContextTokens(s, sessionId))
  const limit = useChat((s) => s.models.find((m) => m.id === model)?.context ?? 0)
  if (!limit) return null
  const share = used / limit
  return (
    <Meter
      value={share}
      label={`${formatTokens(used)} / ${formatTokens(limit)}`}
      title={`Context: ${used.toLocaleString()} of ${limit.toLocaleString()} tokens (${Math.round(share * 100)}%). /compact summarizes the conversation.`}
      testId="context-meter"
    />
  )
}
