import type { EventPayload } from '@shared/ipc'
import type { Message, MessageWithParts, Part, Session } from '@shared/schema/session'

/** A session's messages as the UI holds them: ids in order, infos and parts by message. */
export interface Transcript {
  status: 'loading' | 'ready' | 'error'
  error?: string
  /** Last applied per-session `seq`; null = take the next event as the baseline (after a snapshot). */
  seq: number | null
  order: string[]
  infos: Record<string, Message>
  parts: Record<string, Part[]>
}

type SeqChannel = 'updated' | 'deleted' | 'message' | 'part' | 'delta' | 'partRemoved' | 'truncated'

/** A session event that carries a `seq`, tagged with its channel. */
export type SeqEvent = { [C in SeqChannel]: { kind: C; payload: EventPayload<'session', C> } }[SeqChannel]

export const EMPTY_TRANSCRIPT: Transcript = { status: 'ready', seq: null, order: [], infos: {}, parts: {} }

export function loadingTranscript(previous?: Transcript): Transcript {
  return { ...(previous ?? EMPTY_TRANSCRIPT), status: 'loading' }
}

export function transcriptFrom(messages: MessageWithParts[]): Transcript {
  const order: string[] = []
  const infos: Record<string, Message> = {}
  const parts: Record<string, Part[]> = {}
  for (const { info, parts: list } of messages) {
    order.push(info.id)
    infos[info.id] = info
    parts[info.id] = list
  }
  return { status: 'ready', seq: null, order, infos, parts }
}

export interface BatchInput {
  sessions: Record<string, Session>
  transcripts: Record<string, Transcript>
}

export interface BatchResult extends BatchInput {
  /** Sessions whose events had a gap: reload them (their transcript is marked loading). */
  resync: string[]
  /** Text of user messages that arrived (they replace the matching queued prompt). */
  userTexts: { sessionId: string; text: string }[]
}

/**
 * Applies a batch of session events (one animation frame's worth) with
 * copy-on-write: each touched transcript, parts array and part is copied once
 * per batch, so thousands of deltas cost little and untouched rows keep their
 * identity (and do not re-render).
 */
export function applyBatch(input: BatchInput, events: readonly SeqEvent[]): BatchResult {
  let sessions = input.sessions
  let transcripts = input.transcripts
  let sessionsCopied = false
  let transcriptsCopied = false
  const copiedTranscripts = new Set<string>()
  const copiedArrays = new Set<string>()
  const copiedParts = new Set<string>()
  const resync: string[] = []
  const userTexts: BatchResult['userTexts'] = []

  const writableSessions = (): Record<string, Session> => {
    if (!sessionsCopied) {
      sessions = { ...sessions }
      sessionsCopied = true
    }
    return sessions
  }
  const writableTranscripts = (): Record<string, Transcript> => {
    if (!transcriptsCopied) {
      transcripts = { ...transcripts }
      transcriptsCopied = true
    }
    return transcripts
  }
  const writable = (sessionId: string, current: Transcript): Transcript => {
    if (copiedTranscripts.has(sessionId)) return current
    const copy: Transcript = { ...current, infos: current.infos, parts: { ...current.parts } }
    writableTranscripts()[sessionId] = copy
    copiedTranscripts.add(sessionId)
    return copy
  }
  const partsOf = (t: Transcript, messageId: string): Part[] => {
    // Message ids are unique across sessions, so they key the copies alone.
    const list = t.parts[messageId] ?? []
    if (copiedArrays.has(messageId)) return list
    const copy = [...list]
    t.parts[messageId] = copy
    copiedArrays.add(messageId)
    return copy
  }

  for (const event of events) {
    const sessionId = event.payload.sessionId
    const known = sessions[sessionId]
    if (event.kind === 'updated') {
      const { session } = event.payload
      writableSessions()[sessionId] = session
      // A session we see being born has no history to load: start it empty and live.
      if (!known && !transcripts[sessionId] && event.payload.seq === 1) {
        writableTranscripts()[sessionId] = { ...EMPTY_TRANSCRIPT, seq: 1 }
        copiedTranscripts.add(sessionId)
        continue
      }
    } else if (event.kind === 'deleted') {
      if (known) delete writableSessions()[sessionId]
      if (transcripts[sessionId]) delete writableTranscripts()[sessionId]
      continue
    }

    const current = transcripts[sessionId]
    // Not shown (never loaded), or a reload is on its way: the snapshot will hold this event.
    if (!current || current.status !== 'ready') continue
    if (current.seq !== null) {
      if (event.payload.seq <= current.seq) continue
      if (event.payload.seq > current.seq + 1) {
        resync.push(sessionId)
        writableTranscripts()[sessionId] = loadingTranscript(current)
        copiedTranscripts.add(sessionId)
        continue
      }
    }
    const t = writable(sessionId, current)
    t.seq = event.payload.seq
    if (!applyOne(t, event, partsOf, copiedParts, userTexts)) {
      resync.push(sessionId)
      writableTranscripts()[sessionId] = loadingTranscript(t)
    }
  }
  return { sessions, transcripts, resync, userTexts }
}

/** Applies one event to a writable transcript; false when the event does not fit (resync). */
function applyOne(
  t: Transcript,
  event: SeqEvent,
  partsOf: (t: Transcript, messageId: string) => Part[],
  copiedParts: Set<string>,
  userTexts: BatchResult['userTexts'],
): boolean {
  switch (event.kind) {
    case 'updated':
    case 'deleted':
      return true
    case 'message': {
      const { message } = event.payload
      if (t.infos[message.id] === undefined) insertId(t, message.id)
      t.infos = { ...t.infos, [message.id]: message }
      t.parts[message.id] ??= []
      return true
    }
    case 'part': {
      const { part } = event.payload
      if (t.infos[part.messageId] === undefined) return false
      const list = partsOf(t, part.messageId)
      const index = list.findIndex((p) => p.id === part.id)
      if (index >= 0) list[index] = part
      else list.push(part)
      copiedParts.add(part.id)
      if (part.type === 'text' && t.infos[part.messageId]?.role === 'user' && !part.synthetic) {
        userTexts.push({ sessionId: part.sessionId, text: part.text })
      }
      return true
    }
    case 'delta': {
      const { messageId, partId, delta } = event.payload
      const list = partsOf(t, messageId)
      const index = list.findIndex((p) => p.id === partId)
      const part = list[index]
      if (!part || (part.type !== 'text' && part.type !== 'reasoning')) return false
      if (copiedParts.has(partId)) part.text += delta
      else {
        list[index] = { ...part, text: part.text + delta }
        copiedParts.add(partId)
      }
      return true
    }
    case 'partRemoved': {
      const { messageId, partId } = event.payload
      const list = partsOf(t, messageId)
      const index = list.findIndex((p) => p.id === partId)
      if (index >= 0) list.splice(index, 1)
      return true
    }
    case 'truncated': {
      const { fromMessageId } = event.payload
      const keep = t.order.filter((id) => id < fromMessageId)
      const infos: Record<string, Message> = {}
      for (const id of keep) {
        const info = t.infos[id]
        if (info) infos[id] = info
      }
      for (const id of t.order) if (id >= fromMessageId) delete t.parts[id]
      t.order = keep
      t.infos = infos
      return true
    }
  }
}

/** Message ids sort in creation order: almost always an append. */
function insertId(t: Transcript, id: string): void {
  const last = t.order[t.order.length - 1]
  if (last === undefined || id > last) {
    t.order = [...t.order, id]
    return
  }
  const order = [...t.order]
  let lo = 0
  let hi = order.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if ((order[mid] as string) < id) lo = mid + 1
    else hi = mid
  }
  order.splice(lo, 0, id)
  t.order = order
}
