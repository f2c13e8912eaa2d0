import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import type { PartOf } from '@shared/schema/session'
import type { ToolHost } from '../../../src/main/core/agent/tool-host'
import { checkInvariant } from '../../../src/main/core/context'
import { setLogLevel } from '../../../src/main/core/util/log'
import { TranscriptCache } from '../../../src/main/core/context/transcript-cache'
import type { FakeToolCall, FakeTurn } from '../../fixtures/fake-llm'
import { harness, Router, servers } from './harness'

// Repairs and summaries are logged as warnings; the assertions below check them instead.
setLogLevel('error')

afterEach(async () => {
  for (const s of servers.splice(0)) await s.close()
})

/**
 * Random sessions against the fake provider, which answers 400 to any request
 * whose tool calls and results do not pair up: turns with tool calls (reused ids,
 * large outputs, usage past the window), provider failures that are retried
 * (HTTP 500, dropped streams) or not (stream errors after a call), stops at random
 * moments, manual compactions at random points, crashes that leave a turn open,
 * and restarts with and without recovery. Every request must be accepted.
 */

interface StepSeed {
  calls: number
  big: boolean
  over: boolean
  reuseIds: boolean
  fault: 'none' | 'http500' | 'drop' | 'stream-error'
}

type Action =
  | { kind: 'prompt'; steps: StepSeed[] }
  | { kind: 'abort'; afterMs: number; steps: StepSeed[] }
  | { kind: 'compact'; at: number }
  | { kind: 'crash'; recover: boolean }
  | { kind: 'restart'; recover: boolean }
  | { kind: 'prune' }

const step: fc.Arbitrary<StepSeed> = fc.record({
  calls: fc.integer({ min: 0, max: 3 }),
  big: fc.integer({ min: 0, max: 9 }).map((n) => n < 3),
  over: fc.integer({ min: 0, max: 9 }).map((n) => n < 2),
  reuseIds: fc.boolean(),
  fault: fc.constantFrom('none', 'none', 'none', 'http500', 'drop', 'stream-error'),
})
const steps = fc.array(step, { minLength: 1, maxLength: 4 })
const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('prompt' as const), steps }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('abort' as const), afterMs: fc.integer({ min: 0, max: 80 }), steps }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('compact' as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('crash' as const), recover: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('restart' as const), recover: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('prune' as const) }) },
)

/** A 40k window (32k usable): a few large outputs overflow it. */
const LIMITS = { contextLimit: 40_000, outputLimit: 8_000 }
const OVER_USAGE = { input: 36_000, output: 50 }

function tools(): ToolHost {
  return {
    definitions: () => [
      { name: 'read', description: 'Read', inputSchema: { type: 'object', properties: { size: { type: 'number' } } } },
      { name: 'slow', description: 'Slow', inputSchema: { type: 'object', properties: { ms: { type: 'number' } } } },
    ],
    async execute(call, ctx) {
      const args = call.input as { size?: number; ms?: number }
      if (call.name === 'slow') {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, args.ms ?? 50)
          ctx.signal.addEventListener('abort', () => (clearTimeout(timer), reject(new Error('stopped'))))
        })
        return { output: 'slept', isError: false }
      }
      return { output: `out:${'r'.repeat(args.size ?? 10)}`, title: `read ${args.size}`, isError: false }
    },
  }
}

function turnsFor(seed: StepSeed, index: number, slow: boolean): FakeTurn[] {
  const toolCalls: FakeToolCall[] = Array.from({ length: seed.calls }, (_, i) => ({
    ...(seed.reuseIds ? { id: `call_reused_${i}` } : {}),
    name: 'read',
    args: { size: seed.big ? 20_000 : 200 },
  }))
  if (slow) toolCalls.unshift({ name: 'slow', args: { ms: 150 } })
  const turn: FakeTurn = toolCalls.length > 0 ? { text: `step ${index}`, toolCalls } : { text: `answer ${index}` }
  if (seed.over) turn.usage = OVER_USAGE
  switch (seed.fault) {
    case 'http500':
      return [{ fault: { type: 'http', status: 500 } }, turn]
    case 'drop':
      return [{ ...turn, fault: { type: 'drop', afterEvents: 2 } }, turn]
    case 'stream-error':
      // Late enough to follow a finished tool call when there is one: that attempt is not retried.
      return [{ ...turn, fault: { type: 'stream-error', afterEvents: 9 } }, turn]
    case 'none':
      return [turn]
  }
}

const ALLOWED_COMPACT_ERRORS = new Set(['NothingToCompact'])

async function play(model: string, actions: Action[], summaryFaults: boolean[]): Promise<void> {
  let summaryCall = 0
  const router = new Router(() => (summaryFaults[summaryCall++] ? { fault: { type: 'http', status: 500 } } : { text: '## Goal\nkeep going' }))
  const provider = model.split('/')[0] as 'anthropic' | 'openai'
  const modelId = model.split('/')[1] as string
  // Small prune thresholds so the manual prunes below find something in these short sessions.
  const h = await harness({ model, tools, router, models: { [provider]: { [modelId]: LIMITS } }, prune: { protectTokens: 500, minimumTokens: 200, protectedTurns: 0 } })
  const { sessionId } = h
  // A second transcript cache that only follows the bus: after every action it must equal the database.
  let reads = 0
  const mirror = new TranscriptCache(h.bus, (id) => (reads++, h.store.messages(id)), { maxAgeMs: Number.POSITIVE_INFINITY })
  const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value))
  mirror.messages(sessionId)
  let n = 0
  try {
    for (const act of actions) {
      switch (act.kind) {
        case 'prompt':
          router.plan.push(...act.steps.flatMap((s) => turnsFor(s, n++, false)))
          await h.agents.prompt({ sessionId, text: `prompt ${n}` })
          break
        case 'abort': {
          router.plan.push(...act.steps.flatMap((s, i) => turnsFor(s, n++, i === 0)))
          const turn = h.agents.prompt({ sessionId, text: `stoppable ${n}` })
          const timer = setTimeout(() => h.agents.abort(sessionId), act.afterMs)
          await turn
          clearTimeout(timer)
          break
        }
        case 'compact': {
          const tail = h.store.messages(sessionId).filter((m) => !m.parts.some((p) => p.type === 'compaction'))
          const target = tail[Math.floor(act.at * tail.length)]
          try {
            await h.context.compact(sessionId, target ? { upToMessageId: target.info.id } : {})
          } catch (error) {
            if (!ALLOWED_COMPACT_ERRORS.has((error as Error).name)) throw error
          }
          break
        }
        case 'crash': {
          // What a kill mid-turn leaves: an open assistant message with a call that never ran.
          const open = h.store.addMessage({ sessionId, role: 'assistant', agent: 'build', model })
          h.store.addPart<PartOf<'text'>>({ sessionId, messageId: open.id, type: 'text', text: 'half a sent' })
          h.store.addPart<PartOf<'tool'>>({ sessionId, messageId: open.id, type: 'tool', callId: `crash_${n++}`, tool: 'read', state: { status: 'running', input: { size: 1 } } })
          h.restart({ recover: act.recover })
          break
        }
        case 'restart':
          h.restart({ recover: act.recover })
          break
        case 'prune':
          h.context.prune(sessionId)
          break
      }
      expect(plain(mirror.messages(sessionId))).toEqual(plain(h.store.messages(sessionId)))
    }
    router.plan.length = 0
    const final = await h.agents.prompt({ sessionId, text: 'final' })
    expect(final.status).toBe('completed')
    const prepared = await h.context.beforeRequest({ sessionId, model })
    expect(checkInvariant(prepared.messages)).toEqual([])
    const refused = h.fake.requests.filter((r) => r.status !== 200 && r.status !== 500)
    expect(refused.map((r) => `${r.status} ${JSON.stringify(r.body).slice(0, 200)}`)).toEqual([])
    expect(plain(mirror.messages(sessionId))).toEqual(plain(h.store.messages(sessionId)))
    expect(reads).toBe(1)
  } finally {
    mirror.dispose()
    h.context.dispose()
    await h.fake.close()
    servers.splice(servers.indexOf(h.fake), 1)
  }
}

describe('fuzz: sessions against the fake provider', () => {
  it('every request is accepted across compactions, stops, retries, crashes and restarts', { timeout: 240_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('anthropic/claude-sonnet-4-5', 'openai/gpt-4.1'),
        fc.array(action, { minLength: 2, maxLength: 8 }),
        fc.array(fc.boolean(), { maxLength: 4 }),
        play,
      ),
      { numRuns: 40 },
    )
  })
})
