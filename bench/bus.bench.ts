/**
 * Bus benchmark: the cost of one publish with and without the payload check that
 * tests and development run (`checkEvent`), for the events a busy turn or a
 * large checkout sends most: a text delta, a finished tool part with 10 kB of
 * output, a terminal batch, and a watcher batch of 1,000 changes.
 * Prints one JSON object as the last line. Run: node --import tsx bench/bus.bench.ts
 */
import './support/app-modules'

import { loadavg } from 'node:os'

const { EventBus } = await import('../src/main/core/bus/bus')
const { checkEvent } = await import('../src/main/core/bus/event-check')
type BusChannel = import('../src/main/core/bus/bus').BusChannel
type BusPayload<C extends BusChannel> = import('../src/main/core/bus/bus').BusPayload<C>

const PROJECT = 'benchproject00001'
const SESSION = 'ses_benchbenchbench01'
const MESSAGE = 'msg_benchbenchbench01'
const PART = 'prt_benchbenchbench01'

const delta: BusPayload<'session:delta'> = { sessionId: SESSION, seq: 1, messageId: MESSAGE, partId: PART, field: 'text', delta: 'some streamed words ' }
const toolPart: BusPayload<'session:part'> = {
  sessionId: SESSION,
  seq: 2,
  part: {
    id: PART,
    sessionId: SESSION,
    messageId: MESSAGE,
    type: 'tool',
    callId: 'toolu_bench',
    tool: 'bash',
    state: {
      status: 'completed',
      input: { command: 'npm test', description: 'run the tests' },
      output: 'x'.repeat(10_000),
      title: 'npm test',
      metadata: { exitCode: 0 },
      startedAt: 1,
      endedAt: 2,
    },
  },
}
const ptyData: BusPayload<'pty:data'> = { id: 't1', data: 'y'.repeat(4096), offset: 0 }
const fsChanged: BusPayload<'fs:changed'> = {
  changes: Array.from({ length: 1000 }, (_, i) => ({ kind: 'changed' as const, path: `src/module-${i}/file-${i}.ts` })),
  invalidated: [],
}

function perPublishUs<C extends BusChannel>(checked: boolean, channel: C, payload: BusPayload<C>, runs: number): number {
  const bus = new EventBus(checked ? { check: checkEvent } : {})
  let delivered = 0
  bus.subscribe(() => delivered++)
  for (let i = 0; i < Math.min(200, runs); i++) bus.publish(channel, payload, PROJECT) // warm-up
  const start = performance.now()
  for (let i = 0; i < runs; i++) bus.publish(channel, payload, PROJECT)
  const us = ((performance.now() - start) * 1000) / runs
  if (delivered < runs) throw new Error('events were lost')
  return Math.round(us * 100) / 100
}

const results: Record<string, { uncheckedUs: number; checkedUs: number }> = {}
function measure<C extends BusChannel>(name: string, channel: C, payload: BusPayload<C>, runs: number): void {
  results[name] = { uncheckedUs: perPublishUs(false, channel, payload, runs), checkedUs: perPublishUs(true, channel, payload, runs) }
}
measure('session:delta', 'session:delta', delta, 20_000)
measure('session:part (tool, 10 kB output)', 'session:part', toolPart, 5_000)
measure('pty:data (4 kB)', 'pty:data', ptyData, 20_000)
measure('fs:changed (1,000 changes)', 'fs:changed', fsChanged, 500)
process.stdout.write(`${JSON.stringify({ unit: 'microseconds per publish', load: loadavg()[0], results })}\n`)
