import type { Effort } from '@shared/schema/effort'
import type { Message, MessageWithParts, Part, PartOf, Session } from '@shared/schema/session'
import type { ImageMediaType } from '@shared/schema/image'
import type { BusPayload, EventBus } from '../bus/bus'
import type { SessionsRepo } from '../storage/sessions-repo'
import { ascendingId } from '../util/id'
import { SessionErrorNames, sessionNotFound } from './errors'

/** The session events that carry the per-session `seq` (status and todos do not). */
type SequencedChannel = 'session:updated' | 'session:deleted' | 'session:message' | 'session:part' | 'session:delta' | 'session:partRemoved' | 'session:truncated'

/** Streamed text is written to SQLite at most this long after it arrived. */
export const FLUSH_INTERVAL_MS = 100

type StreamedPart = PartOf<'text'> | PartOf<'reasoning'>

interface LivePart {
  part: StreamedPart
  dirty: boolean
}

/**
 * Sessions, messages and parts: SQLite is the truth, events tell the UI. Every
 * event of a session carries a per-session `seq` that grows by one, so a client
 * can detect a gap and reload that session. Text deltas are kept in memory and
 * flushed in one transaction every ≤100 ms and when a part ends, so a crash loses
 * at most that window.
 */
export class SessionStore {
  private readonly seqs = new Map<string, number>()
  private readonly projects = new Map<string, string>()
  /** Text and reasoning parts that are still streaming. */
  private readonly live = new Map<string, LivePart>()
  private flushTimer: NodeJS.Timeout | undefined

  constructor(
    private readonly repo: SessionsRepo,
    private readonly bus: EventBus,
  ) {}

  create(input: {
    projectId: string
    agent: string
    model: string
    effort?: Effort
    parentId?: string | null
    title?: string
  }): Session {
    const now = Date.now()
    const session: Session = {
      id: ascendingId('ses'),
      projectId: input.projectId,
      parentId: input.parentId ?? null,
      title: input.title ?? defaultTitle(now),
      agent: input.agent,
      model: input.model,
      ...(input.effort ? { effort: input.effort } : {}),
      createdAt: now,
      updatedAt: now,
    }
    this.repo.insertSession(session)
    this.projects.set(session.id, session.projectId)
    this.emit(session.id, 'session:updated', { session })
    return session
  }

  get(id: string): Session {
    const session = this.repo.session(id)
    if (!session) throw sessionNotFound(id)
    return session
  }

  find(id: string): Session | undefined {
    return this.repo.session(id)
  }

  list(projectId: string, options: { roots?: boolean; limit?: number; search?: string } = {}): Session[] {
    return this.repo.sessions(projectId, options)
  }

  update(id: string, changes: Partial<Pick<Session, 'title' | 'agent' | 'model' | 'effort'>>): Session {
    const session = { ...this.get(id), ...changes, updatedAt: Date.now() }
    this.repo.updateSession(session)
    this.emit(session.id, 'session:updated', { session })
    return session
  }

  touch(id: string): void {
    this.update(id, {})
  }

  delete(id: string): boolean {
    const session = this.find(id)
    if (!session) return false
    this.flush()
    for (const [partId, live] of this.live) if (live.part.sessionId === id) this.live.delete(partId)
    const deleted = this.repo.deleteSession(id)
    this.projects.set(id, session.projectId) // the row is gone: the event's project comes from here
    this.emit(session.id, 'session:deleted', {})
    this.projects.delete(id)
    return deleted
  }

  /** The transcript as stored, with streamed text not yet flushed included. */
  messages(sessionId: string): MessageWithParts[] {
    this.flush()
    const parts = this.repo.parts(sessionId)
    const byMessage = new Map<string, Part[]>()
    for (const part of parts) {
      const list = byMessage.get(part.messageId) ?? []
      list.push(part)
      byMessage.set(part.messageId, list)
    }
    return this.repo.messages(sessionId).map((info) => ({ info, parts: byMessage.get(info.id) ?? [] }))
  }

  addMessage(message: Omit<Message, 'id' | 'createdAt'> & { id?: string; createdAt?: number }): Message {
    const full: Message = { ...message, id: message.id ?? ascendingId('msg'), createdAt: message.createdAt ?? Date.now() }
    this.repo.upsertMessage(full)
    this.emit(full.sessionId, 'session:message', { message: full })
    return full
  }

  updateMessage(message: Message): Message {
    this.repo.upsertMessage(message)
    this.emit(message.sessionId, 'session:message', { message })
    return message
  }

  /** Adds a part at the end of its message, written at once (structure is never batched). */
  addPart<P extends Part>(part: Omit<P, 'id'> & { id?: string }): P {
    const full = { ...part, id: part.id ?? ascendingId('prt') } as P
    this.repo.upsertPart(full)
    if (full.type === 'text' || full.type === 'reasoning') this.live.set(full.id, { part: full, dirty: false })
    this.emit(full.sessionId, 'session:part', { part: full })
    return full
  }

  /**
   * Keeps an image's bytes for a message (the part that shows it is added with `addPart`). The bytes go in a
   * table of their own: parts stay small, so transcripts load, stream to the UI and measure fast.
   */
  addImage(image: { sessionId: string; messageId: string; mediaType: ImageMediaType; bytes: Buffer }): string {
    const id = ascendingId('img')
    this.repo.insertImage({ id, sessionId: image.sessionId, messageId: image.messageId, mediaType: image.mediaType, data: image.bytes })
    return id
  }

  /** A stored image's bytes as base64, or undefined when its message (or session) was deleted. */
  image(imageId: string, sessionId?: string): { mediaType: ImageMediaType; data: string } | undefined {
    const stored = this.repo.image(imageId)
    if (!stored || (sessionId !== undefined && stored.sessionId !== sessionId)) return undefined
    return { mediaType: stored.mediaType as ImageMediaType, data: stored.data.toString('base64') }
  }

  /** Replaces a part (status changes, tool output…) and writes it at once. */
  updatePart<P extends Part>(part: P): P {
    const live = this.live.get(part.id)
    if (live && (part.type === 'text' || part.type === 'reasoning')) this.live.set(part.id, { part, dirty: false })
    if (!this.repo.updatePartData(part)) this.repo.upsertPart(part)
    this.emit(part.sessionId, 'session:part', { part })
    return part
  }

  /** Appends streamed text to a text or reasoning part; persisted within FLUSH_INTERVAL_MS. */
  appendText(partId: string, delta: string): void {
    const live = this.live.get(partId)
    if (!live) throw new Error(`part ${partId} is not streaming`)
    live.part = { ...live.part, text: live.part.text + delta }
    live.dirty = true
    this.emit(live.part.sessionId, 'session:delta', { messageId: live.part.messageId, partId, field: 'text', delta })
    this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_INTERVAL_MS)
  }

  /** The current state of a streaming text or reasoning part. */
  livePart(partId: string): StreamedPart | undefined {
    return this.live.get(partId)?.part
  }

  /** Removes a part (e.g. output of a provider attempt that is being retried). */
  removePart(part: Part): void {
    this.live.delete(part.id)
    this.repo.deletePart(part.id)
    this.emit(part.sessionId, 'session:partRemoved', { partId: part.id, messageId: part.messageId })
  }

  /** Ends a part's live state: its final text is written now. */
  endPart(partId: string): void {
    const live = this.live.get(partId)
    if (!live) return
    if (live.dirty) this.repo.updatePartData(live.part)
    this.live.delete(partId)
  }

  flush(): void {
    clearTimeout(this.flushTimer)
    this.flushTimer = undefined
    const dirty = [...this.live.values()].filter((l) => l.dirty)
    if (dirty.length === 0) return
    this.repo.transaction(() => {
      for (const live of dirty) {
        this.repo.updatePartData(live.part)
        live.dirty = false
      }
    })
  }

  /** Truncates the conversation from `messageId` on (conversation restore, edit and resend). */
  truncateFrom(sessionId: string, messageId: string): number {
    this.flush()
    const removed = this.repo.deleteMessagesFrom(sessionId, messageId)
    this.emit(sessionId, 'session:truncated', { fromMessageId: messageId })
    return removed
  }

  /**
   * After a crash or kill: assistant messages that never completed are closed as
   * interrupted and their unfinished tool calls get an `interrupted` result, so
   * the transcript is whole and the next request is valid.
   */
  recoverInterrupted(sessionId: string): number {
    let repaired = 0
    for (const { info, parts } of this.messages(sessionId)) {
      if (info.role !== 'assistant' || info.completedAt !== undefined) continue
      const now = Date.now()
      for (const part of parts) {
        if (part.type === 'tool' && (part.state.status === 'pending' || part.state.status === 'running')) {
          this.updatePart({
            ...part,
            state: { ...part.state, status: 'interrupted', error: 'interrupted before it finished', endedAt: now },
          })
        }
      }
      this.updateMessage({
        ...info,
        completedAt: now,
        error: info.error ?? { name: SessionErrorNames.Interrupted, data: { message: 'the app stopped during this turn' } },
      })
      repaired++
    }
    return repaired
  }

  dispose(): void {
    this.flush()
  }

  /** A session's project never changes: remembered so events (one per streamed delta) cost no query. */
  private projectOf(sessionId: string): string {
    let projectId = this.projects.get(sessionId)
    if (projectId === undefined) {
      projectId = this.get(sessionId).projectId
      this.projects.set(sessionId, projectId)
    }
    return projectId
  }

  private emit<C extends SequencedChannel>(sessionId: string, channel: C, payload: Omit<BusPayload<C>, 'sessionId' | 'seq'>): void {
    const seq = (this.seqs.get(sessionId) ?? 0) + 1
    this.seqs.set(sessionId, seq)
    this.bus.publish(channel, { sessionId, seq, ...payload } as BusPayload<C>, this.projectOf(sessionId))
  }

}

function defaultTitle(now: number): string {
  return `New session ${new Date(now).toISOString().slice(0, 16).replace('T', ' ')}`
}
