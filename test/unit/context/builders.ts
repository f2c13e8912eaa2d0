import type { Message, MessageWithParts, Part, PartOf, ToolState } from '@shared/schema/session'

/** Stored transcripts built by hand: ids are valid and ascend in creation order. */

export const SESSION = 'ses_0000000000test'
let counter = 0

export function nextId(prefix: 'msg' | 'prt'): string {
  counter++
  return `${prefix}_${String(counter).padStart(14, '0')}`
}

type PartSpec = Omit<PartOf<'text'>, 'id' | 'messageId' | 'sessionId'> | Omit<PartOf<'reasoning'>, 'id' | 'messageId' | 'sessionId'> |
  Omit<PartOf<'tool'>, 'id' | 'messageId' | 'sessionId'> | Omit<PartOf<'compaction'>, 'id' | 'messageId' | 'sessionId'> |
  Omit<PartOf<'step-start'>, 'id' | 'messageId' | 'sessionId'> | Omit<PartOf<'context'>, 'id' | 'messageId' | 'sessionId'>

function message(role: Message['role'], specs: PartSpec[], info: Partial<Message> = {}): MessageWithParts {
  const id = info.id ?? nextId('msg')
  const createdAt = info.createdAt ?? counter
  const full: Message = { id, sessionId: SESSION, role, agent: 'build', model: 'anthropic/claude-sonnet-4-5', createdAt, completedAt: createdAt, ...info }
  const parts = specs.map((spec) => ({ ...spec, id: nextId('prt'), messageId: id, sessionId: SESSION }) as Part)
  return { info: full, parts }
}

export function user(text: string, info: Partial<Message> = {}): MessageWithParts {
  return message('user', [{ type: 'text', text }], info)
}

/** A user message whose turn context (date, git, instructions…) the app added ahead of the words. */
export function userWithContext(text: string, sections: Array<{ name: string; text: string }>): MessageWithParts {
  return message('user', [{ type: 'context', sections }, { type: 'text', text }])
}

export function assistant(specs: PartSpec[], info: Partial<Message> = {}): MessageWithParts {
  return message('assistant', specs, info)
}

export function text(value: string): PartSpec {
  return { type: 'text', text: value }
}

export function tool(name: string, output: string, state: Partial<ToolState> = {}, callId = nextId('prt').replace('prt_', 'call_')): PartSpec {
  return { type: 'tool', callId, tool: name, state: { status: 'completed', input: { path: 'x' }, output, ...state } }
}

export function marker(summary: string, upTo?: string): MessageWithParts {
  return message('assistant', [{ type: 'compaction', summary, auto: true, ...(upTo ? { upTo } : {}) }], { agent: 'compaction' })
}

export function toolParts(messages: readonly MessageWithParts[]): PartOf<'tool'>[] {
  return messages.flatMap((m) => m.parts.filter((p): p is PartOf<'tool'> => p.type === 'tool'))
}

/** A string of about `tokens` tokens (4 characters each). */
export function tokensOf(tokens: number, fill = 'x'): string {
  return fill.repeat(tokens * 4)
}
