import { eventChannel } from '@shared/ipc/channels'
import type { Message, MessageWithParts, Part } from '@shared/schema/session'
import type { BusEvent, EventBus } from '../bus/bus'

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

/** The session events (names from the IPC contract) this cache applies… */
const MESSAGE = eventChannel('session', 'message')
const PART = eventChannel('session', 'part')
const DELTA = eventChannel('session', 'delta')
const PART_REMOVED = eventChannel('session', 'partRemoved')
const TRUNCATED = eventChannel('session', 'truncated')
/** …and those that do not change messages or parts. Any other session event drops the entry. */
const IGNORED = new Set(['updated', 'status', 'todos'].map((e) => eventChannel('session', e)))

function sortsAfter(a: Message, b: Message): boolean {
  return a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id)
}

export class TranscriptCache {
  private readonly entries = new Map<string, Entry>()
  private readonly unsubscribe: () => void
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
    this.unsubscribe = bus.subscribe((event) => this.apply(event))
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
    this.unsubscribe()
    this.entries.clear()
  }

  private apply(event: BusEvent): void {
    if (!event.channel.startsWith('session:') || IGNORED.has(event.channel)) return
    const payload = event.envelope.payload as Record<string, unknown>
    const sessionId = payload.sessionId
    if (typeof sessionId !== 'string') return
    const entry = this.entries.get(sessionId)
    if (!entry) return
    if (!this.applyTo(entry, event.channel, payload)) this.entries.delete(sessionId)
  }

  /** False when the change cannot be applied exactly (the entry is then dropped). */
  private applyTo(entry: Entry, channel: string, payload: Record<string, unknown>): boolean {
    switch (channel) {
      case MESSAGE:
        return this.upsertMessage(entry, payload.message as Message)
      case PART:
        return this.upsertPart(entry, payload.part as Part)
      case DELTA:
        return this.appendDelta(entry, payload.messageId as string, payload.partId as string, payload.field, payload.delta as string)
      case PART_REMOVED:
        return this.changeParts(entry, payload.messageId as string, (parts) => parts.filter((p) => p.id !== payload.partId))
      case TRUNCATED: {
        // The store removes messages from this id on, as its ids ascend.
        const from = payload.fromMessageId as string
        entry.list = entry.list.filter((m) => m.info.id < from)
        return true
      }
      default:
        // Deleted sessions, and any change this cache does not know.
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

  private appendDelta(entry: Entry, messageId: string, partId: string, field: unknown, delta: string): boolean {
    if (field !== 'text') return false
    return this.changeParts(entry, messageId, (parts) => {
      const at = parts.findIndex((p) => p.id === partId)
      const part = parts[at]
      if (!part || (part.type !== 'text' && part.type !== 'reasoning')) return undefined
      return parts.map((p, i) => (i === at ? { ...part, text: part.text + delta } : p))
    })
  }
}
