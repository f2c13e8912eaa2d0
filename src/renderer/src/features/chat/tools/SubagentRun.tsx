import { useEffect } from 'react'
import type { Session } from '@shared/schema/session'
import { StatusGlyph } from '../../../components/StatusGlyph'
import { Twisty } from '../../../components/Twisty'
import { useChat, useChatController, type ChatState } from '../../../stores/chat'
import { InlineTranscript } from '../messages/InlineTranscript'
import { keyArgument, record, str, type ToolPart } from './describe'

/**
 * The child session a `task` call runs in: same parent, titled with the task's
 * description, created once the call started (the tool reports no session id).
 */
function childOf(sessions: Record<string, Session>, part: ToolPart): string | null {
  const description = str(record(part.state.input).description)
  const since = (part.state.startedAt ?? 0) - 5_000
  let best: Session | null = null
  for (const s of Object.values(sessions)) {
    if (s.parentId !== part.sessionId || s.title !== description || s.createdAt < since) continue
    if (!best || s.createdAt < best.createdAt) best = s
  }
  return best?.id ?? null
}

/** "Reading src/a.ts": the child's latest tool call, for the collapsed header. */
function activityOf(s: ChatState, sessionId: string, root: string): string {
  const t = s.transcripts[sessionId]
  if (!t) return ''
  let calls = 0
  let last = ''
  for (const id of t.order) {
    for (const p of t.parts[id] ?? []) {
      if (p.type !== 'tool') continue
      calls++
      last = `${p.tool} ${keyArgument(p, root)}`
    }
  }
  return calls === 0 ? '' : `${calls} call${calls === 1 ? '' : 's'} · ${last}`
}

/** A subagent run nested in its task card: live status, latest activity, the whole run when opened. */
export function SubagentRun({ part, root }: { part: ToolPart; root: string }) {
  const chat = useChatController()
  const childId = useChat((s) => childOf(s.sessions, part))
  const busy = useChat((s) => (childId ? (s.statuses[childId]?.type ?? 'idle') !== 'idle' : false))
  const activity = useChat((s) => (childId ? activityOf(s, childId, root) : ''))
  const key = `sub:${part.id}`
  const open = useChat((s) => s.expanded[key] ?? false)
  const agent = str(record(part.state.input).subagent_type) ?? 'subagent'
  useEffect(() => {
    if (childId) chat.ensureTranscript(childId)
  }, [chat, childId])
  const state = busy ? 'running' : part.state.status === 'running' ? 'pending' : part.state.status
  return (
    <div className="subagent" data-testid="subagent-run" data-agent={agent} data-session-id={childId ?? ''} data-busy={busy}>
      <button type="button" className="subagent-head" aria-expanded={open} onClick={() => chat.toggleExpanded(key, false)} disabled={!childId}>
        <Twisty open={open} />
        <StatusGlyph state={state} />
        <span className="subagent-agent">{agent}</span>
        <span className="subagent-activity muted">{childId ? activity || (busy ? 'starting…' : '') : 'waiting to start'}</span>
      </button>
      {open && childId && (
        <div className="subagent-body" data-testid="subagent-body">
          <InlineTranscript sessionId={childId} root={root} />
        </div>
      )}
    </div>
  )
}
