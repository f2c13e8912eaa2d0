import { memo, type ReactNode } from 'react'
import type { Message, Part } from '@shared/schema/session'
import { formatDuration } from '../../../components/Elapsed'
import { splitContext } from '../../../stores/chat-context'
import { REVIEW_NOTE_END, useChat, useChatController } from '../../../stores/chat'
import { background } from '../../../lib/background'
import { RestoreToHere, TurnChanges } from '../../checkpoints'
import { formatCost, formatTokens } from '../format'
import { Markdown } from '../markdown/Markdown'
import { NoKeyActions } from '../composer/LocalModels'
import { ToolCard } from '../tools/ToolCard'
import { Compaction, HookFailures, Reasoning } from './parts'
import { MessageImages } from './MessageImages'
import { StopNotice } from './StopNotice'
import { friendlyError, keyNeeded } from './error-text'
import { turnErrorView } from './turn-error'
import type { Transcript } from '../../../stores/chat-model'
import type { TurnSummary } from './turns'

const EMPTY: Part[] = []

function renderPart(part: Part, streaming: boolean, root: string, recent: boolean, reasoningTokens?: number): ReactNode {
  switch (part.type) {
    case 'text':
      if (!part.text) return null
      return part.synthetic ? (
        <div key={part.id} className="synthetic muted">
          {part.text}
        </div>
      ) : (
        <Markdown key={part.id} text={part.text} streaming={streaming} />
      )
    case 'reasoning':
      // Reasoning kept only encrypted (no summary) is for the model, not the reader.
      if (!part.text && !part.redactedData) return null
      return <Reasoning key={part.id} part={part} streaming={streaming} reportedTokens={reasoningTokens} />
    case 'tool':
      return <ToolCard key={part.id} part={part} root={root} recent={recent} />
    case 'compaction':
      return <Compaction key={part.id} part={part} />
    case 'image':
      return <MessageImages key={part.id} parts={[part]} />
    case 'hook':
      return <HookFailures key={part.id} event={part.event} failures={part.failures} />
    // The app's context for the model (date, git status, instructions, late diagnostics) is not the conversation.
    case 'context':
    case 'step-start':
    case 'step-finish':
      return null
  }
}

/** The step's reported reasoning tokens, when they belong to its one reasoning block (else each block is estimated). */
function reportedReasoning(info: Message, parts: readonly Part[]): number | undefined {
  const reported = info.usage?.reasoning
  if (reported === undefined || reported === 0) return undefined
  return parts.filter((p) => p.type === 'reasoning').length === 1 ? reported : undefined
}

function MessageError({ error, sessionId }: { error: NonNullable<Message['error']>; sessionId: string }) {
  switch (turnErrorView(error.name)) {
    case 'stopped':
      return <div className="msg-stopped muted" data-testid="turn-stopped">Stopped</div>
    // No key: the message says where one goes; the actions add one or switch to a local model.
    case 'needs-key': {
      const providerId = typeof error.data.providerId === 'string' ? error.data.providerId : 'anthropic'
      return (
        <div className="msg-error" role="alert" data-testid="message-error" data-error={error.name}>
          <span className="msg-error-text">{keyNeeded(providerId, error.data.message)}</span>
          <NoKeyActions sessionId={sessionId} providerId={providerId} />
          <RetryTurn sessionId={sessionId} />
          <details className="msg-error-details">
            <summary>Details</summary>
            <code data-testid="error-details">{error.data.message}</code>
          </details>
        </div>
      )
    }
    // Billing names the provider and what to do in its own words: the error's name would only add noise.
    case 'own-words':
      return (
        <div className="msg-error" role="alert" data-testid="message-error">
          {error.data.message}
        </div>
      )
    case 'named':
      return <NamedError error={error} sessionId={sessionId} />
  }
}

function NamedError({ error, sessionId }: { error: NonNullable<Message['error']>; sessionId: string }) {
  const friendly = friendlyError(error.name, error.data)
  if (!friendly) {
    return (
      <div className="msg-error" role="alert" data-testid="message-error">
        {error.name}: {error.data.message}
        <RetryTurn sessionId={sessionId} />
      </div>
    )
  }
  // Plain words first; what the provider or the network said is one click away.
  return (
    <div className="msg-error" role="alert" data-testid="message-error" data-error={error.name}>
      <span className="msg-error-text">{friendly}</span>
      <RetryTurn sessionId={sessionId} />
      <details className="msg-error-details">
        <summary>Details</summary>
        <code data-testid="error-details">
          {error.name}: {error.data.message}
        </code>
      </details>
    </div>
  )
}

/** The turn that failed already did work (text or tool steps after the user's message): resuming beats redoing it. */
function turnDidWork(transcript: Transcript | undefined): boolean {
  if (!transcript) return false
  for (let i = transcript.order.length - 1; i >= 0; i--) {
    const id = transcript.order[i] as string
    if (transcript.infos[id]?.role === 'user') return false
    if ((transcript.parts[id] ?? []).some((p) => (p.type === 'text' && p.text.trim() !== '' && !p.synthetic) || p.type === 'tool')) return true
  }
  return false
}

/** What Resume sends: the model carries on from its last step instead of starting the task again. */
export const RESUME_PROMPT = 'Continue from where you stopped.'

/**
 * For a failed last turn, as long as nothing came after it: Retry sends its prompt again; Resume, when the turn
 * had done work already (or the prompt is not known here, after a reload), asks the model to carry on.
 */
function RetryTurn({ sessionId }: { sessionId: string }) {
  const chat = useChatController()
  const idle = useChat((s) => (s.statuses[sessionId]?.type ?? 'idle') === 'idle')
  const last = useChat((s) => {
    const transcript = s.transcripts[sessionId]
    const id = transcript?.order.at(-1)
    return id !== undefined && transcript?.infos[id]?.error !== undefined
  })
  const worked = useChat((s) => turnDidWork(s.transcripts[sessionId]))
  if (!idle || !last) return null
  const canRetry = chat.lastPrompt(sessionId) !== undefined
  return (
    <span className="msg-error-actions">
      {canRetry && (
        <button type="button" className="small" onClick={() => background('chat.retry', chat.retry(sessionId))}>
          Retry
        </button>
      )}
      {(worked || !canRetry) && (
        <button type="button" className="small" onClick={() => background('chat.resume', chat.send(RESUME_PROMPT).then(() => undefined))}>
          Resume
        </button>
      )}
    </span>
  )
}

export function TurnFooter({ sessionId, summary }: { sessionId: string; summary: TurnSummary }) {
  const { usage } = summary
  const cache = usage.cacheRead + usage.cacheWrite
  return (
    <div className="turn-footer muted" title={`${summary.steps} step${summary.steps === 1 ? '' : 's'} · ${summary.model}`}>
      {/* A turn stopped before the model reported usage shows its time only. */}
      {summary.steps > 0 && (
        <span className="turn-usage" data-testid="turn-usage">
          <span>↑ {formatTokens(usage.input + cache)}</span>
          {cache > 0 && <span>({formatTokens(usage.cacheRead)} cached)</span>}
          <span>↓ {formatTokens(usage.output)}</span>
          <span>{formatCost(summary.cost)}</span>
        </span>
      )}
      <span>{formatDuration(summary.durationMs)}</span>
      <TurnChanges sessionId={sessionId} userMessageId={summary.userMessageId} messageIds={summary.messageIds} />
    </div>
  )
}

function UserText({ text }: { text: string }) {
  // A review note sent ahead of the message is the app's, not the user's: it shows as a chip.
  const end = text.indexOf(REVIEW_NOTE_END)
  const written = end >= 0 ? text.slice(end + REVIEW_NOTE_END.length).trimStart() : text
  // Editor selections and mentioned files went to the model as blocks after the text: they show as chips.
  const { own, context } = splitContext(written)
  // @mentions stand out; everything else is shown exactly as typed.
  const pieces = own.split(/(@[^\s@]+)/g)
  return (
    <>
      {end >= 0 && (
        <span className="badge-pill review-note" title={text.slice(0, end)}>
          notes from your review
        </span>
      )}
      {pieces.map((piece, i) => (piece.startsWith('@') && i % 2 === 1 ? <span key={i} className="mention">{piece}</span> : piece))}
      {context.length > 0 && (
        <span className="msg-context">
          {context.map((c, i) => (
            <span key={i} className="badge-pill context-pill" title={c.text.slice(0, 2000)} data-testid="message-context" data-kind={c.kind}>
              {c.label}
            </span>
          ))}
        </span>
      )}
    </>
  )
}

interface MessageRowProps {
  sessionId: string
  messageId: string
  root: string
  /** Part of the latest turn (edit diffs start open there). */
  recent: boolean
  summary?: TurnSummary
}

/** One message of a transcript; re-renders only when its own parts change. */
export const MessageRow = memo(function MessageRow({ sessionId, messageId, root, recent, summary }: MessageRowProps) {
  const info = useChat((s) => s.transcripts[sessionId]?.infos[messageId])
  const parts = useChat((s) => s.transcripts[sessionId]?.parts[messageId]) ?? EMPTY
  if (!info) return null
  if (info.role === 'user') {
    const text = parts
      .filter((p): p is Extract<Part, { type: 'text' }> => p.type === 'text' && !p.synthetic)
      .map((p) => p.text)
      .join('\n')
    return (
      <div className="msg msg-user" data-testid="user-message" data-message-id={messageId}>
        <MessageImages parts={parts.filter((p): p is Extract<Part, { type: 'image' }> => p.type === 'image')} />
        {text && (
          <div className="msg-user-text">
            <UserText text={text} />
          </div>
        )}
        {parts.map((p) => (p.type === 'hook' ? <HookFailures key={p.id} event={p.event} failures={p.failures} /> : null))}
        <RestoreToHere sessionId={sessionId} messageId={messageId} />
      </div>
    )
  }
  const streaming = info.completedAt === undefined
  return (
    <div className="msg msg-assistant" data-testid="assistant-message" data-message-id={messageId} data-complete={!streaming}>
      {parts.map((p) => renderPart(p, streaming, root, recent, reportedReasoning(info, parts)))}
      {!streaming && <StopNotice finish={info.finish} />}
      {info.error && <MessageError error={info.error} sessionId={sessionId} />}
      {summary && <TurnFooter sessionId={sessionId} summary={summary} />}
    </div>
  )
})
