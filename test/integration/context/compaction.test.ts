import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { PartOf } from '@shared/schema/session'
import type { ToolHost } from '../../../src/main/core/agent/tool-host'
import { checkInvariant } from '../../../src/main/core/context'
import { setLogLevel } from '../../../src/main/core/util/log'
import { bodyText, harness, isSummaryRequest, Router, servers } from './harness'

setLogLevel('error')

afterEach(async () => {
  for (const s of servers.splice(0)) await s.close()
})

function readTool(root: string): ToolHost {
  return {
    definitions: () => [{ name: 'read', description: 'Read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }],
    async execute(call) {
      const path = (call.input as { path?: string }).path ?? ''
      return { output: readFileSync(join(root, path), 'utf8'), title: path, isError: false }
    },
  }
}

/** Eight files of ~9.75k tokens each: 39k tokens for the newest four fit the 40k kept. */
const BIG = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`big${i + 1}.txt`, `BIG${i + 1}:${'abcd'.repeat(9_748)}`]))
const reads = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => ({ name: 'read', args: { path: `big${from + i}.txt` } }))

describe('context management against the fake provider', () => {
  it('prunes when usage crosses the limit, summarizes when pruning is not enough, and stays valid across a restart', async () => {
    const h = await harness({ model: 'anthropic/claude-sonnet-4-5', tools: readTool, files: BIG })
    const { fake, router, sessionId } = h
    // Usable window of claude-sonnet-4-5: 200k − min(20k, 64k) = 180k.
    router.plan.push({ toolCalls: reads(1, 4) }, { toolCalls: reads(5, 8) }, { text: 'Read them all.' })
    expect((await h.agents.prompt({ sessionId, text: 'read the big files' })).status).toBe('completed')
    router.plan.push({ text: 'Sure.' })
    await h.agents.prompt({ sessionId, text: 'thanks' })

    // The provider reports 185k: over the limit. Old outputs (outside the last two turns) go.
    router.plan.push({ text: 'Checking.', toolCalls: [{ name: 'read', args: { path: 'a.txt' } }], usage: { input: 185_000, output: 100 } }, { text: 'Fine.' })
    const before = fake.requests.length
    await h.agents.prompt({ sessionId, text: 'continue' })
    const afterPrune = bodyText(fake.requests[before + 1])
    for (const n of [1, 2, 3, 4]) expect(afterPrune).not.toContain(`BIG${n}:`)
    for (const n of [5, 6, 7, 8]) expect(afterPrune).toContain(`BIG${n}:`)
    expect(afterPrune).toContain('cleared to save context')
    expect(router.summaries).toBe(0)
    const pruned = h.store.messages(sessionId).flatMap((m) => m.parts).filter((p): p is PartOf<'tool'> => p.type === 'tool' && p.state.compactedAt !== undefined)
    expect(pruned.map((p) => p.state.title)).toEqual(['big1.txt', 'big2.txt', 'big3.txt', 'big4.txt'])
    // Pruned outputs stay stored for the UI.
    expect(pruned[0]?.state.output).toContain('BIG1:')

    // Over the limit again, and nothing left worth pruning: the compaction agent summarizes.
    router.plan.push({ toolCalls: [{ name: 'read', args: { path: 'a.txt' } }], usage: { input: 190_000, output: 100 } }, { text: 'Continuing.' })
    const beforeSummary = fake.requests.length
    await h.agents.prompt({ sessionId, text: 'more work' })
    expect(router.summaries).toBe(1)
    const summaryRequest = fake.requests.slice(beforeSummary).find(isSummaryRequest)
    expect(bodyText(summaryRequest)).toContain('read the big files')
    const afterSummary = bodyText(fake.requests.at(-1))
    expect(afterSummary).toContain('SUMMARY-MARK')
    expect(afterSummary).not.toContain('read the big files')
    expect(afterSummary).not.toContain('BIG5:')
    // The last two user turns stay verbatim.
    expect(afterSummary).toContain('continue')
    expect(afterSummary).toContain('more work')
    const marker = h.store.messages(sessionId).find((m) => m.parts.some((p) => p.type === 'compaction'))
    expect(marker?.parts[0]).toMatchObject({ type: 'compaction', auto: true, summary: '## Goal\nSUMMARY-MARK' })

    // A restart reads everything from the database: the next request is still summary + tail.
    h.restart()
    router.plan.push({ text: 'Back.' })
    expect((await h.agents.prompt({ sessionId, text: 'after restart' })).status).toBe('completed')
    const afterRestart = bodyText(fake.requests.at(-1))
    expect(afterRestart).toContain('SUMMARY-MARK')
    expect(afterRestart).not.toContain('read the big files')
    const prepared = await h.context.beforeRequest({ sessionId, model: 'anthropic/claude-sonnet-4-5' })
    expect(checkInvariant(prepared.messages)).toEqual([])
    expect(fake.requests.every((r) => r.status === 200)).toBe(true)
  })

  it('summarizes and retries the step once when the provider refuses a request as too long', async () => {
    const h = await harness({ model: 'openai/gpt-4.1', tools: readTool })
    const { fake, router, sessionId } = h
    router.plan.push({ text: 'One.' })
    await h.agents.prompt({ sessionId, text: 'first' })
    router.plan.push({ fault: { type: 'http', status: 400, message: "This model's maximum context length is 1047576 tokens." } }, { text: 'Now it fits.' })
    const retried = await h.agents.prompt({ sessionId, text: 'second' })
    expect(retried.status).toBe('completed')
    expect(router.summaries).toBe(1)
    expect(bodyText(fake.requests.at(-1))).toContain('SUMMARY-MARK')
    expect(bodyText(fake.requests.at(-1))).toContain('second')
    expect(fake.requests.filter((r) => r.status !== 200)).toHaveLength(1)
  })

  it('compacts on demand, up to a chosen message, and refuses to summarize it twice', async () => {
    const h = await harness({ model: 'anthropic/claude-sonnet-4-5', tools: readTool })
    const { fake, router, sessionId } = h
    for (const word of ['alpha', 'bravo', 'charlie']) {
      router.plan.push({ text: `ack ${word}`, toolCalls: [{ name: 'read', args: { path: 'a.txt' } }] }, { text: `done ${word}` })
      await h.agents.prompt({ sessionId, text: `task ${word}` })
    }
    const history = h.store.messages(sessionId)
    const upTo = history.find((m) => m.parts.some((p) => p.type === 'text' && p.text === 'done bravo'))!
    const result = await h.context.compact(sessionId, { upToMessageId: upTo.info.id })
    expect(result).toMatchObject({ covered: 6, level: 'full', part: { auto: false, upTo: upTo.info.id } })
    await expect(h.context.compact(sessionId, { upToMessageId: history[0]!.info.id })).rejects.toMatchObject({ name: 'NothingToCompact' })
    await expect(h.context.compact(sessionId, { upToMessageId: 'msg_000000000000nope' })).rejects.toMatchObject({ name: 'NotFound' })

    router.plan.push({ text: 'ok' })
    await h.agents.prompt({ sessionId, text: 'task delta' })
    const sent = bodyText(fake.requests.at(-1))
    expect(sent).toContain('SUMMARY-MARK')
    expect(sent).not.toContain('task alpha')
    expect(sent).toContain('task charlie')

    // A full manual compaction folds the previous summary in and leaves no verbatim tail.
    await h.context.compact(sessionId)
    expect(bodyText(fake.requests.at(-1))).toContain('<previous-summary>')
    await expect(h.context.compact(sessionId)).rejects.toMatchObject({ name: 'NothingToCompact' })
    expect(fake.requests.every((r) => r.status === 200)).toBe(true)
  })

  it('degrades the summary request to fit a small model, and shrinks it when the provider still refuses it', async () => {
    let refuseNext = true
    const router = new Router(() => {
      if (!refuseNext) return { text: '## Goal\nSUMMARY-MARK' }
      refuseNext = false
      return { fault: { type: 'http', status: 400, message: 'prompt is too long: 30000 tokens > 16000 maximum' } }
    })
    const h = await harness({ model: 'openai/gpt-4.1', tools: readTool, router, models: { openai: { 'gpt-4.1': { contextLimit: 16_000, outputLimit: 4_000 } } } })
    const { store, sessionId } = h
    // Ten stored turns with 20k-character outputs (~50k tokens): far more than the model's window.
    for (let i = 0; i < 10; i++) {
      const asked = store.addMessage({ sessionId, role: 'user', agent: 'build', model: 'openai/gpt-4.1', completedAt: Date.now() })
      store.addPart<PartOf<'text'>>({ sessionId, messageId: asked.id, type: 'text', text: `task ${i}` })
      const answer = store.addMessage({ sessionId, role: 'assistant', agent: 'build', model: 'openai/gpt-4.1', completedAt: Date.now() })
      store.addPart<PartOf<'tool'>>({
        sessionId,
        messageId: answer.id,
        type: 'tool',
        callId: `call_${i}`,
        tool: 'read',
        state: { status: 'completed', input: { path: `f${i}.txt` }, output: `F${i}:${'z'.repeat(20_000)}` },
      })
    }
    const result = await h.context.compact(sessionId)
    expect(result.level).not.toBe('full')
    const summaries = h.fake.requests.filter(isSummaryRequest)
    expect(summaries.map((r) => r.status)).toEqual([400, 200])
    // 16k context − 4k reserve = 12k usable tokens: the first input was sized under it, the retry halved.
    expect(bodyText(summaries[0]).length / 4).toBeLessThan(12_000)
    expect(bodyText(summaries[1]).length).toBeLessThan(bodyText(summaries[0]).length / 2 + 1_000)
    expect(bodyText(summaries[1])).toContain('task 9')
    expect(result.part.summary).toContain('SUMMARY-MARK')
  })
})
