import fc from 'fast-check'
import type { Message, MessageWithParts, Part, ToolStatus } from '@shared/schema/session'
import type { ModelMessage, ToolResultPart } from '../../../src/main/core/provider'
import { SESSION } from './builders'

/**
 * Random stored transcripts, healthy and broken: reused and provider-invalid call
 * ids, calls in every state (a stop or a crash leaves pending/running ones), blank
 * text, reasoning-only messages, failed-hook notes, pruned outputs, messages a crash
 * left open, and compaction markers at random points naming any message — or one
 * that no longer exists.
 */

const blankish = fc.constantFrom('', ' ', '\n\t', 'ok', 'some text', 'x'.repeat(50))
const callId = fc.oneof(
  fc.constantFrom('call_1', 'call_2', 'toolu_01A', 'toolu_01B'),
  fc.constantFrom('functions.read:0', 'id with spaces', 'x'.repeat(70)),
  fc.stringMatching(/^[a-z0-9_]{1,10}$/),
)
const toolInput = fc.oneof(fc.constant({ path: 'a.ts' }), fc.constant('not an object'), fc.constant(null), fc.constant([1, 2]), fc.constant(undefined))
const status = fc.constantFrom<ToolStatus>('pending', 'running', 'completed', 'error', 'interrupted')

type PartSeed =
  | { kind: 'text'; text: string }
  | { kind: 'reasoning'; text: string; signed: boolean }
  | { kind: 'tool'; callId: string; tool: string; status: ToolStatus; output: string; input: unknown; pruned: boolean }
  | { kind: 'step' }
  | { kind: 'hook' }

const partSeed: fc.Arbitrary<PartSeed> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('text' as const), text: blankish }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reasoning' as const), text: blankish, signed: fc.boolean() }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('tool' as const),
      callId,
      tool: fc.constantFrom('read', 'bash', 'skill'),
      status,
      output: blankish,
      input: toolInput,
      pruned: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('step' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('hook' as const) }) },
)

export type MessageSeed =
  | { kind: 'user'; texts: string[] }
  | { kind: 'assistant'; parts: PartSeed[]; open: boolean; error?: 'Aborted' | 'ContextOverflow' | 'Interrupted'; model: string }
  | { kind: 'marker'; upTo: number; summary: string }

export const messageSeed: fc.Arbitrary<MessageSeed> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('user' as const), texts: fc.array(blankish, { maxLength: 3 }) }) },
  {
    weight: 5,
    arbitrary: fc.record(
      {
        kind: fc.constant('assistant' as const),
        parts: fc.array(partSeed, { maxLength: 6 }),
        open: fc.boolean(),
        error: fc.constantFrom('Aborted' as const, 'ContextOverflow' as const, 'Interrupted' as const),
        model: fc.constantFrom('anthropic/claude-sonnet-4-5', 'openai/gpt-4.1'),
      },
      { requiredKeys: ['kind', 'parts', 'open', 'model'] },
    ),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('marker' as const), upTo: fc.integer({ min: -1, max: 30 }), summary: blankish }) },
)

function buildPart(seed: PartSeed, messageId: string, id: string): Part {
  const base = { id, messageId, sessionId: SESSION }
  switch (seed.kind) {
    case 'text':
      return { ...base, type: 'text', text: seed.text }
    case 'reasoning':
      return { ...base, type: 'reasoning', text: seed.text, ...(seed.signed ? { signature: 'sig', providerId: 'anthropic' } : {}) }
    case 'tool': {
      const done = seed.status === 'completed' || seed.status === 'error'
      return {
        ...base,
        type: 'tool',
        callId: seed.callId,
        tool: seed.tool,
        state: {
          status: seed.status,
          input: seed.input,
          ...(seed.status === 'completed' ? { output: seed.output } : {}),
          ...(seed.status === 'error' ? { error: seed.output } : {}),
          ...(done && seed.pruned ? { compactedAt: 1 } : {}),
        },
      }
    }
    case 'step':
      return { ...base, type: 'step-start' }
    case 'hook':
      return { ...base, type: 'hook', event: 'Stop', failures: [{ command: 'notify', error: 'exit code 1' }] }
  }
}

/** Stored messages from seeds; `restarted` applies what recovery after a crash does to open messages. */
export function buildHistory(seeds: readonly MessageSeed[], restarted = false): MessageWithParts[] {
  const ids = seeds.map((_, i) => `msg_${String(i).padStart(14, '0')}`)
  return seeds.map((seed, i): MessageWithParts => {
    const id = ids[i] as string
    const info: Message = { id, sessionId: SESSION, role: seed.kind === 'user' ? 'user' : 'assistant', agent: 'build', model: 'anthropic/claude-sonnet-4-5', createdAt: i, completedAt: i }
    const partId = (n: number) => `prt_${String(i).padStart(7, '0')}${String(n).padStart(7, '0')}`
    if (seed.kind === 'user') return { info, parts: seed.texts.map((text, n) => ({ id: partId(n), messageId: id, sessionId: SESSION, type: 'text', text })) }
    if (seed.kind === 'marker') {
      const upTo = ids[seed.upTo] ?? 'msg_00000000000gone'
      return { info: { ...info, agent: 'compaction' }, parts: [{ id: partId(0), messageId: id, sessionId: SESSION, type: 'compaction', summary: seed.summary, auto: true, upTo }] }
    }
    let parts = seed.parts.map((p, n) => buildPart(p, id, partId(n)))
    const open = seed.open && !restarted
    if (restarted && seed.open) {
      parts = parts.map((p) => (p.type === 'tool' && (p.state.status === 'pending' || p.state.status === 'running') ? { ...p, state: { ...p.state, status: 'interrupted' } } : p))
    }
    const { completedAt: _done, ...openInfo } = info
    const withModel = { ...(open ? openInfo : info), model: seed.model }
    return { info: seed.error ? { ...withModel, error: { name: seed.error, data: { message: seed.error } } } : withModel, parts }
  })
}

/** Random provider-level message lists, including orphan results and results of the wrong call. */
export const modelMessages: fc.Arbitrary<ModelMessage[]> = (() => {
  const result: fc.Arbitrary<ToolResultPart> = fc.record({
    type: fc.constant('tool-result' as const),
    toolCallId: callId,
    toolName: fc.constant('read'),
    output: blankish,
  })
  const message: fc.Arbitrary<ModelMessage> = fc.oneof(
    fc.record({ role: fc.constant('user' as const), content: fc.array(blankish.map((text) => ({ type: 'text' as const, text })), { maxLength: 2 }) }),
    fc.record({
      role: fc.constant('assistant' as const),
      content: fc.array(
        fc.oneof(
          blankish.map((text) => ({ type: 'text' as const, text })),
          blankish.map((text) => ({ type: 'reasoning' as const, text })),
          fc.record({ type: fc.constant('tool-call' as const), id: callId, name: fc.constant('read'), input: toolInput }),
        ),
        { maxLength: 4 },
      ),
    }),
    fc.record({ role: fc.constant('tool' as const), content: fc.array(result, { maxLength: 3 }) }),
  )
  return fc.array(message, { maxLength: 12 })
})()
