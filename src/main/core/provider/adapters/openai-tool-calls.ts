import { randomUUID } from 'node:crypto'
import type { StreamEvent } from '../types'
import { toolCallEnd } from './tool-input'

/**
 * One `delta.tool_calls[]` entry as compatible servers really send it: `index` may be
 * missing (older Ollama) or the same for every call (Ollama), `id` and `name` may be
 * empty or null after the first chunk, the name may come after the first chunk
 * (Grok), and `arguments` may be an object instead of JSON text (Ollama via LiteLLM).
 */
export interface LooseToolCallDelta {
  index?: unknown
  id?: unknown
  function?: { name?: unknown; arguments?: unknown } | null
  /** Gemini: `{ google: { thought_signature } }` on the first delta of a call. */
  extra_content?: unknown
}

interface OpenCall {
  id: string
  name: string
  args: string
  signature?: string
  started: boolean
  ended: boolean
}

const nonEmpty = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined)

/** Gemini's thought signature in a call's `extra_content`, if any. */
export function thoughtSignature(extra: unknown): string | undefined {
  if (typeof extra !== 'object' || extra === null) return undefined
  const google = (extra as { google?: unknown }).google
  if (typeof google !== 'object' || google === null) return undefined
  return nonEmpty((google as { thought_signature?: unknown }).thought_signature)
}

export function newCallId(): string {
  return `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`
}

/** Argument text of a delta: text as it is, an object as its JSON. */
export function argumentsText(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value === 'object' && value !== null) return JSON.stringify(value)
  return undefined
}

/** Whether accumulated argument text is a whole JSON object (no later piece can extend it). */
function isWholeObject(text: string): boolean {
  const trimmed = text.trim()
  if (!trimmed.startsWith('{') || !trimmed.endsWith('}')) return false
  try {
    const value: unknown = JSON.parse(trimmed)
    return typeof value === 'object' && value !== null && !Array.isArray(value)
  } catch (error) {
    if (error instanceof SyntaxError) return false
    throw error
  }
}

/**
 * Assembles streamed Chat Completions tool calls, keyed by id and index together.
 * A delta belongs to the call its id names; without an id, to the call last seen at
 * its index (or the last call, when there is no index). A delta that names a tool
 * while that call is already whole (named, arguments a complete object) starts a new
 * call in the same slot: servers that reuse `index: 0` for every call. A call starts
 * once its name is known and ends when the stream finishes, or earlier once another
 * call receives data while its own arguments are whole, so the loop may run it while
 * later calls stream.
 */
export class ToolCallAssembler {
  private readonly calls: OpenCall[] = []
  private readonly byId = new Map<string, OpenCall>()
  private readonly byIndex = new Map<number, OpenCall>()
  private current: OpenCall | undefined

  get count(): number {
    return this.calls.length
  }

  *add(part: LooseToolCallDelta): Generator<StreamEvent> {
    const index = typeof part.index === 'number' ? part.index : undefined
    const id = nonEmpty(part.id)
    const name = nonEmpty(part.function?.name)
    const args = argumentsText(part.function?.arguments)
    let call = this.find(id, index, name)
    // An empty trailing delta for a call already ended carries nothing to keep.
    if (!call && id === undefined && name === undefined && !args) return
    if (call !== this.current) yield* this.endIfWhole(this.current)
    if (!call) {
      call = { id: id ?? newCallId(), name: '', args: '', started: false, ended: false }
      this.calls.push(call)
      this.byId.set(call.id, call)
    }
    if (index !== undefined) this.byIndex.set(index, call)
    this.current = call
    if (name && !call.name) call.name = name
    call.signature ??= thoughtSignature(part.extra_content)
    if (args) {
      // An object is the whole argument set: it replaces anything streamed before it.
      if (typeof part.function?.arguments === 'object') call.args = args
      else call.args += args
      if (call.started) yield { type: 'tool-call-delta', id: call.id, argsDelta: args }
    }
    if (!call.started && call.name) yield* this.start(call)
  }

  /** Ends every call still open, in the order they began. */
  *finish(): Generator<StreamEvent> {
    for (const call of this.calls) yield* this.end(call)
  }

  private find(id: string | undefined, index: number | undefined, name: string | undefined): OpenCall | undefined {
    const known = id === undefined ? undefined : this.byId.get(id)
    if (known) return known
    const candidate = index === undefined ? this.current : this.byIndex.get(index)
    if (!candidate || candidate.ended) return undefined
    const whole = candidate.name !== '' && isWholeObject(candidate.args)
    // A fresh id or a tool name for a call that is already whole: the next call in a reused slot.
    if (whole && (id !== undefined || name !== undefined)) return undefined
    // A fresh id on a delta with no name, for a call still streaming: a server that ids every chunk.
    if (id !== undefined && name !== undefined) return undefined
    return candidate
  }

  private *start(call: OpenCall): Generator<StreamEvent> {
    call.started = true
    yield { type: 'tool-call-start', id: call.id, name: call.name }
    if (call.args) yield { type: 'tool-call-delta', id: call.id, argsDelta: call.args }
  }

  private *endIfWhole(call: OpenCall | undefined): Generator<StreamEvent> {
    if (call && call.started && isWholeObject(call.args)) yield* this.end(call)
  }

  private *end(call: OpenCall): Generator<StreamEvent> {
    if (call.ended) return
    if (!call.started) yield* this.start(call)
    call.ended = true
    const end = toolCallEnd(call.id, call.name, call.args)
    yield call.signature ? { ...end, signature: call.signature } : end
  }
}
