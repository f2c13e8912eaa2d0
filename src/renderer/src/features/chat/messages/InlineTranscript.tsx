import { useMemo } from 'react'
import { useChat } from '../../../stores/chat'
import { MessageRow } from './MessageRow'
import { layoutTurns } from './turns'

/** A short transcript drawn in place (a subagent run inside its task card); not virtualized. */
export function InlineTranscript({ sessionId, root }: { sessionId: string; root: string }) {
  const order = useChat((s) => s.transcripts[sessionId]?.order)
  const infos = useChat((s) => s.transcripts[sessionId]?.infos)
  const status = useChat((s) => s.transcripts[sessionId]?.status ?? 'loading')
  const layout = useMemo(() => layoutTurns(order ?? [], infos ?? {}), [order, infos])
  if (status === 'loading' && !order?.length) return <div className="muted pad">Loading…</div>
  return (
    <div className="inline-transcript">
      {(order ?? []).map((id) => (
        <MessageRow key={id} sessionId={sessionId} messageId={id} root={root} recent summary={layout.summaries.get(id)} />
      ))}
    </div>
  )
}
