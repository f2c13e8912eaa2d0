import type { AssistantMessage, ModelMessage, ToolCallPart, ToolMessage, ToolResultPart, UserMessage } from '../provider'
import { INTERRUPTED_OUTPUT } from './placeholder'

/**
 * The rule every provider enforces on a transcript, and a repair that makes any
 * message list obey it. Providers reject the whole request when one tool call
 * lacks its result or one result lacks its call — the session would then be stuck
 * for good — so this runs on the final message list before every provider call.
 */

/** Sent first when a transcript would otherwise start with the model (providers want a user turn first). */
export const LEADING_USER_TEXT = '(The conversation continues from earlier context.)'

export interface InvariantRepair {
  /** Calls without a result, answered as interrupted. */
  unanswered: string[]
  /** Results whose call is not in the preceding assistant message; left out. */
  orphaned: string[]
  /** Calls whose id was already used earlier in the request; sent under a fresh id, with their result. */
  renamed: string[]
  /** Messages left out because nothing sendable remained in them. */
  dropped: number
  /** A user message was put first because the transcript started with the model. */
  leadingUser: boolean
}

export function emptyRepair(): InvariantRepair {
  return { unanswered: [], orphaned: [], renamed: [], dropped: 0, leadingUser: false }
}

export function repairCount(repair: InvariantRepair): number {
  return repair.unanswered.length + repair.orphaned.length + repair.renamed.length + repair.dropped + (repair.leadingUser ? 1 : 0)
}

export function describeRepair(repair: InvariantRepair): string {
  const notes: string[] = []
  if (repair.unanswered.length > 0) notes.push(`answered ${repair.unanswered.length} unfinished tool call(s) as interrupted`)
  if (repair.orphaned.length > 0) notes.push(`left out ${repair.orphaned.length} tool result(s) without their call`)
  if (repair.renamed.length > 0) notes.push(`renamed ${repair.renamed.length} reused tool call id(s)`)
  if (repair.dropped > 0) notes.push(`left out ${repair.dropped} empty message(s)`)
  if (repair.leadingUser) notes.push('added a leading user message')
  return notes.join('; ')
}

function isBlank(text: string): boolean {
  return text.trim().length === 0
}

function sendableUser(message: UserMessage): UserMessage['content'] {
  return message.content.filter((part) => part.type !== 'text' || !isBlank(part.text))
}

function freshId(id: string, used: Set<string>): string {
  for (let n = 2; ; n++) {
    const candidate = `${id}_${n}`
    if (!used.has(candidate)) return candidate
  }
}

interface PlannedCall {
  originalId: string
  call: ToolCallPart
  result?: ToolResultPart
}

/**
 * Returns a message list that satisfies `checkInvariant`: blank text and empty
 * messages are left out, every call is directly followed by exactly its result
 * (missing ones answered as interrupted, strays left out, reused ids renamed),
 * and the first message is the user's. Valid input comes back unchanged in content.
 */
export function enforceInvariant(input: readonly ModelMessage[]): { messages: ModelMessage[]; repair: InvariantRepair } {
  const repair = emptyRepair()
  const out: ModelMessage[] = []
  const used = new Set<string>()
  for (let i = 0; i < input.length; i++) {
    const message = input[i] as ModelMessage
    if (message.role === 'user') {
      const content = sendableUser(message)
      if (content.length === 0) {
        repair.dropped++
        continue
      }
      const last = out.at(-1)
      if (last?.role === 'user') last.content = [...last.content, ...content]
      else out.push({ role: 'user', content })
      continue
    }
    if (message.role === 'tool') {
      // Reaching a tool message here means no assistant message claimed it.
      for (const result of message.content) repair.orphaned.push(result.toolCallId)
      repair.dropped++
      continue
    }
    const planned: PlannedCall[] = []
    const content: AssistantMessage['content'] = []
    for (const part of message.content) {
      if (part.type === 'text' && isBlank(part.text)) continue
      if (part.type !== 'tool-call') {
        content.push(part)
        continue
      }
      let id = part.id
      if (used.has(id)) {
        id = freshId(part.id, used)
        repair.renamed.push(part.id)
      }
      used.add(id)
      const call: ToolCallPart = id === part.id ? part : { ...part, id }
      planned.push({ originalId: part.id, call })
      content.push(call)
    }
    const next = input[i + 1]
    const results = next?.role === 'tool' ? next.content : []
    if (next?.role === 'tool') i++
    if (!content.some((part) => part.type === 'text' || part.type === 'tool-call')) {
      repair.dropped++
      for (const result of results) repair.orphaned.push(result.toolCallId)
      continue
    }
    for (const result of results) {
      const target = planned.find((p) => p.originalId === result.toolCallId && p.result === undefined)
      if (!target) {
        repair.orphaned.push(result.toolCallId)
        continue
      }
      target.result = result.toolCallId === target.call.id ? result : { ...result, toolCallId: target.call.id }
    }
    out.push({ role: 'assistant', content })
    if (planned.length === 0) continue
    const answers: ToolResultPart[] = planned.map((p) => {
      if (p.result) return p.result
      repair.unanswered.push(p.call.id)
      return { type: 'tool-result', toolCallId: p.call.id, toolName: p.call.name, output: INTERRUPTED_OUTPUT, isError: true }
    })
    out.push({ role: 'tool', content: answers } satisfies ToolMessage)
  }
  if (out.length > 0 && out[0]?.role !== 'user') {
    out.unshift({ role: 'user', content: [{ type: 'text', text: LEADING_USER_TEXT }] })
    repair.leadingUser = true
  }
  return { messages: out, repair }
}

/**
 * The violations of the transcript rule in a message list (empty when valid):
 * a user message first; no empty message or blank text; each assistant message's
 * calls answered by the very next (tool) message, each exactly once; no result
 * elsewhere; every call id used once in the whole request.
 */
export function checkInvariant(messages: readonly ModelMessage[]): string[] {
  const problems: string[] = []
  if (messages.length > 0 && messages[0]?.role !== 'user') problems.push('the first message is not a user message')
  const ids = new Set<string>()
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as ModelMessage
    if (message.content.length === 0) problems.push(`message ${i} is empty`)
    if (message.role === 'tool') {
      const previous = messages[i - 1]
      if (previous?.role !== 'assistant') problems.push(`tool message ${i} does not follow an assistant message`)
      continue
    }
    for (const part of message.content) {
      if (part.type === 'text' && isBlank(part.text)) problems.push(`message ${i} has blank text`)
    }
    if (message.role !== 'assistant') continue
    if (!message.content.some((part) => part.type === 'text' || part.type === 'tool-call')) {
      problems.push(`assistant message ${i} has neither text nor a tool call`)
    }
    const calls = message.content.filter((part): part is ToolCallPart => part.type === 'tool-call').map((part) => part.id)
    for (const id of calls) {
      if (ids.has(id)) problems.push(`tool call id ${id} is used twice`)
      ids.add(id)
    }
    const next = messages[i + 1]
    const results = next?.role === 'tool' ? next.content.map((r) => r.toolCallId) : []
    if (calls.length === 0) {
      if (next?.role === 'tool') problems.push(`tool message ${i + 1} answers an assistant message without calls`)
      continue
    }
    const missing = calls.filter((id) => !results.includes(id))
    const stray = results.filter((id) => !calls.includes(id))
    const repeated = results.filter((id, n) => results.indexOf(id) !== n)
    if (missing.length > 0) problems.push(`message ${i}: calls without a result: ${missing.join(', ')}`)
    if (stray.length > 0) problems.push(`message ${i + 1}: results without a call: ${stray.join(', ')}`)
    if (repeated.length > 0) problems.push(`message ${i + 1}: results given twice: ${repeated.join(', ')}`)
  }
  return problems
}
