/**
 * Context benchmark: time to build the request (read the session, apply the
 * compaction window and pruning, measure it, enforce the transcript invariant)
 * for a 2,000-message session, and the memory the built request holds.
 * Prints one JSON object as the last line. Run: node --import tsx bench/context.bench.ts
 */
import './support/app-modules'

import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

const { EventBus } = await import('../src/main/core/bus/bus')
const { ContextManager } = await import('../src/main/core/context')
const { ProviderRegistry } = await import('../src/main/core/provider')
const { SessionStore } = await import('../src/main/core/session/store')
const { Storage } = await import('../src/main/core/storage')
type PartOf<T extends string> = Extract<import('../src/shared/schema/session').Part, { type: T }>
type PreparedRequest = import('../src/main/core/context').PreparedRequest

const MESSAGES = 2_000
const STEPS_PER_TURN = 4
const RUNS = 40
const TARGET_MS = 20
const MODEL = 'anthropic/claude-sonnet-4-5'

const dir = mkdtempSync(join(tmpdir(), 'hotaru-context-bench-'))
const storage = Storage.open(dir)
const bus = new EventBus()
const store = new SessionStore(storage.sessions, bus)
const project = storage.projects.touch({ id: 'benchproject00001', root: dir, name: 'bench' })
const session = store.create({ projectId: project.id, agent: 'build', model: MODEL })
const sessionId = session.id
const providers = new ProviderRegistry({ env: {} })
// Pure timing: no automatic prune or summary (the tests cover those). With the bus, as the
// app runs it: the transcript stays in memory between steps.
const settings = () => ({ auto: false, prune: false })
const context = new ContextManager({ store, providers, settings, log: () => undefined, bus })
// Without the bus every request re-reads the session from SQLite (the first request of a session does).
const uncached = new ContextManager({ store, providers, settings, log: () => undefined })

const system = ['You are a coding agent.'.repeat(200), 'Environment facts.'.repeat(50)]
const tools = Array.from({ length: 15 }, (_, i) => ({
  name: `tool_${i}`,
  description: 'A tool of the benchmark. '.repeat(20),
  inputSchema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } },
}))

let stepCount = 0
/** One agent step as the loop writes it: a message with a text, a read call and its output. */
function writeStep(pruned: boolean): void {
  const usage = { input: 2_000, output: 200, cacheRead: 40_000, cacheWrite: 500 }
  const n = stepCount++
  const step = store.addMessage({ sessionId, role: 'assistant', agent: 'build', model: MODEL })
  store.addPart<PartOf<'step-start'>>({ sessionId, messageId: step.id, type: 'step-start' })
  const text = store.addPart<PartOf<'text'>>({ sessionId, messageId: step.id, type: 'text', text: '' })
  store.appendText(text.id, `Looking at file ${n}.`)
  store.endPart(text.id)
  store.addPart<PartOf<'tool'>>({
    sessionId,
    messageId: step.id,
    type: 'tool',
    callId: `toolu_${n}`,
    tool: 'read',
    state: { status: 'completed', input: { path: `src/file_${n % 50}.ts` }, output: `line of source code ${n}\n`.repeat(60), title: `src/file_${n % 50}.ts`, ...(pruned ? { compactedAt: 1 } : {}) },
  })
  store.addPart<PartOf<'step-finish'>>({ sessionId, messageId: step.id, type: 'step-finish', usage, cost: 0, finish: 'tool_calls' })
  store.updateMessage({ ...step, completedAt: Date.now(), usage, finish: 'tool_calls' })
}

// A long session after a day of work: turns of a prompt and four tool steps; the older 80% of
// outputs already pruned, as they would be by then.
let created = 0
for (let turn = 0; created < MESSAGES; turn++) {
  const user = store.addMessage({ sessionId, role: 'user', agent: 'build', model: MODEL, completedAt: Date.now() })
  store.addPart<PartOf<'text'>>({ sessionId, messageId: user.id, type: 'text', text: `Request ${turn}: change the handler and run the tests. `.repeat(3) })
  created++
  for (let s = 0; s < STEPS_PER_TURN && created < MESSAGES; s++, created++) writeStep(created < MESSAGES * 0.8)
}
store.flush()

interface Timing {
  medianMs: number
  p95Ms: number
  /** CPU time per request (less disturbed than wall time by other load on the machine). */
  cpuMs: number
  tokens: number
  sentMessages: number
}

function summarize(wall: number[], cpu: number[], last: PreparedRequest): Timing {
  const sorted = [...wall].sort((a, b) => a - b)
  const cpuSorted = [...cpu].sort((a, b) => a - b)
  const pick = (values: number[], q: number) => Number((values[Math.min(values.length - 1, Math.floor(q * values.length))] ?? 0).toFixed(2))
  return { medianMs: pick(sorted, 0.5), p95Ms: pick(sorted, 0.95), cpuMs: pick(cpuSorted, 0.5), tokens: last.tokens, sentMessages: last.messages.length }
}

/** The request before each step of a running turn: a step is written, then the next request is built. */
async function time(manager: InstanceType<typeof ContextManager>, runs: number): Promise<Timing> {
  for (let i = 0; i < 3; i++) await manager.beforeRequest({ sessionId, model: MODEL, system, tools })
  const wall: number[] = []
  const cpu: number[] = []
  let last: PreparedRequest | undefined
  for (let i = 0; i < runs; i++) {
    writeStep(false)
    const cpuStart = process.cpuUsage()
    const start = performance.now()
    last = await manager.beforeRequest({ sessionId, model: MODEL, system, tools })
    wall.push(performance.now() - start)
    const used = process.cpuUsage(cpuStart)
    cpu.push((used.user + used.system) / 1000)
  }
  if (!last) throw new Error('no runs')
  return summarize(wall, cpu, last)
}

/** Heap the built request holds while it is in flight. */
async function heldKB(): Promise<number> {
  gc()
  const before = process.memoryUsage().heapUsed
  const held = await uncached.beforeRequest({ sessionId, model: MODEL, system, tools })
  gc()
  const after = process.memoryUsage().heapUsed
  if (held.messages.length === 0) throw new Error('empty request')
  return Math.round((after - before) / 1024)
}

/** Memory of the cached transcript (the price of the fast path), measured on a fresh cache. */
async function cacheKB(): Promise<number> {
  gc()
  const before = process.memoryUsage().heapUsed
  const fresh = new ContextManager({ store, providers, settings, log: () => undefined, bus })
  await fresh.beforeRequest({ sessionId, model: MODEL, system, tools })
  gc()
  const after = process.memoryUsage().heapUsed
  fresh.dispose()
  return Math.round((after - before) / 1024)
}

const warm = await time(context, RUNS)
const cold = await time(uncached, 10)
const held = await heldKB()
const cache = await cacheKB()

// The same session after a summary of its first 80%.
const history = store.messages(sessionId)
const upTo = history[Math.floor(history.length * 0.8) - 1]
if (!upTo) throw new Error('session too short')
const marker = store.addMessage({ sessionId, role: 'assistant', agent: 'compaction', model: MODEL, completedAt: Date.now() })
store.addPart<PartOf<'compaction'>>({ sessionId, messageId: marker.id, type: 'compaction', summary: '## Goal\nBenchmark.\n'.repeat(200), auto: true, upTo: upTo.info.id })
const afterSummary = await time(context, RUNS)

context.dispose()
store.dispose()
storage.close()
rmSync(dir, { recursive: true, force: true })

const result = {
  messages: MESSAGES,
  targetMs: TARGET_MS,
  buildMs: warm.medianMs,
  buildP95Ms: warm.p95Ms,
  buildCpuMs: warm.cpuMs,
  withinTarget: warm.medianMs <= TARGET_MS,
  sentMessages: warm.sentMessages,
  requestTokens: warm.tokens,
  coldReadMs: cold.medianMs,
  coldReadCpuMs: cold.cpuMs,
  heldKB: held,
  cacheKB: cache,
  afterSummary: { buildMs: afterSummary.medianMs, buildP95Ms: afterSummary.p95Ms, sentMessages: afterSummary.sentMessages, requestTokens: afterSummary.tokens },
  rssMB: Math.round(process.memoryUsage().rss / 1024 / 1024),
  loadAverage: Number(loadavg()[0]?.toFixed(2)),
}
process.stdout.write(`${JSON.stringify(result)}\n`)
