import type { Message, MessageWithParts, Part } from '@shared/schema/session'
import type { BusEvent, EventBus } from '../bus/bus'
import type { Subscription } from '../util/disposable'

/**
 * The transcripts of active sessions, kept in memory so a request does not re-read
 * and re-parse the whole session from SQLite at every step (that read dominates the
 * cost of building a request for a long session). The first read comes from the
 * store; after that the store's own events are applied: every write of a message or
 * part goes through the store, which announces it on the bus. Anything the cache
 * cannot apply with certainty drops the entry (the next read goes to the store), and
 * entries are re-read after `maxAgeMs`, which bounds how long a write by another
 * process on the same database (the CLI) can go unseen.
 */

export interface TranscriptCacheOptions {
  maxAgeMs?: number
  maxSessions?: number
  now?: () => number
}

interface Entry {
  list: MessageWithParts[]
  readAt: number
}

type SessionEvent = Extract<BusEvent, { channel: `session:${string}` }>

function isSessionEvent(event: BusEvent): event is SessionEvent {
  return event.channel.startsWith('session:')
}

function sortsAfter(a: Message, b: Message): boolean {
  return a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id)
}

export class TranscriptCache {
  private readonly entries = new Map<string, Entry>()
  private readonly events: Subscription
  private readonly maxAgeMs: number
  private readonly maxSessions: number
  private readonly now: () => number

  constructor(
    bus: EventBus,
    private readonly read: (sessionId: string) => MessageWithParts[],
    options: TranscriptCacheOptions = {},
  ) {
    this.maxAgeMs = options.maxAgeMs ?? 30_000
    this.maxSessions = options.maxSessions ?? 4
    this.now = options.now ?? Date.now
    this.events = bus.subscribe((event) => this.apply(event))
  }

  /** The session's transcript as the store would return it (a snapshot: later writes do not change it). */
  messages(sessionId: string): MessageWithParts[] {
    const entry = this.entries.get(sessionId)
    if (entry && this.now() - entry.readAt <= this.maxAgeMs) {
      // Most recently used last, for the eviction below.
      this.entries.delete(sessionId)
      this.entries.set(sessionId, entry)
      return entry.list.slice()
    }
    const list = this.read(sessionId)
    this.entries.delete(sessionId)
    this.entries.set(sessionId, { list, readAt: this.now() })
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxSessions) break
      this.entries.delete(oldest)
    }
    return list.slice()
  }

  invalidate(sessionId: string): void {
    this.entries.delete(sessionId)
  }

  dispose(): void {
    this.events.dispose()
    this.entries.clear()
  }

  private apply(event: BusEvent): void {
    if (!isSessionEvent(event)) return
    const entry = this.entries.get(event.envelope.payload.sessionId)
    if (!entry) return
    if (!this.applyTo(entry, event)) this.entries.delete(event.envelope.payload.sessionId)
  }

  /** False when the change cannot be applied exactly (the entry is then dropped). */
  private applyTo(entry: Entry, event: SessionEvent): boolean {
    switch (event.channel) {
      // Changes that leave messages and parts as they are.
      case 'session:updated':
      case 'session:status':
      case 'session:todos':
        return true
      case 'session:message':
        return this.upsertMessage(entry, event.envelope.payload.message)
      case 'session:part':
        return this.upsertPart(entry, event.envelope.payload.part)
      case 'session:delta': {
        const { messageId, partId, delta } = event.envelope.payload
        return this.appendDelta(entry, messageId, partId, delta)
      }
      case 'session:partRemoved': {
        const { partId } = event.envelope.payload
        return this.changeParts(entry, event.envelope.payload.messageId, (parts) => parts.filter((p) => p.id !== partId))
      }
      case 'session:truncated': {
        // The store removes messages from this id on, as its ids ascend.
        const from = event.envelope.payload.fromMessageId
        entry.list = entry.list.filter((m) => m.info.id < from)
        return true
      }
      case 'session:deleted':
        return false
    }
  }

  private indexOf(entry: Entry, messageId: string): number {
    // Changes nearly always concern the newest messages: search from the end.
    for (let i = entry.list.length - 1; i >= 0; i--) if (entry.list[i]?.info.id === messageId) return i
    return -1
  }

  private upsertMessage(entry: Entry, message: Message): boolean {
    const index = this.indexOf(entry, message.id)
    if (index >= 0) {
      const current = entry.list[index] as MessageWithParts
      entry.list[index] = { info: message, parts: current.parts }
      return true
    }
    // Stored order is (createdAt, id); a new message normally goes last.
    let at = entry.list.length
    while (at > 0 && sortsAfter((entry.list[at - 1] as MessageWithParts).info, message)) at--
    entry.list.splice(at, 0, { info: message, parts: [] })
    return true
  }

  private changeParts(entry: Entry, messageId: string, change: (parts: Part[]) => Part[] | undefined): boolean {
    const index = this.indexOf(entry, messageId)
    if (index < 0) return false
    const current = entry.list[index] as MessageWithParts
    const parts = change(current.parts)
    if (!parts) return false
    // A new object: snapshots handed out earlier keep what they had.
    entry.list[index] = { info: current.info, parts }
    return true
  }

  private upsertPart(entry: Entry, part: Part): boolean {
    return this.changeParts(entry, part.messageId, (parts) => {
      const at = parts.findIndex((p) => p.id === part.id)
      // The store appends a part it does not hold yet after the message's last one.
      return at < 0 ? [...parts, part] : parts.map((p, i) => (i === at ? part : p))
    })
  }

  private appendDelta(entry: Entry, messageId: string, partId: string, delta: string): boolean {
    return this.changeParts(entry, messageId, (parts) => {
      const at = parts.findIndex((p) => p.id === partId)
      const part = parts[at]
      if (!part || (part.type !== 'text' && part.type !== 'reasoning')) return undefined
      return parts.map((p, i) => (i === at ? { ...part, text: part.text + delta } : p))
    })
  }
}
