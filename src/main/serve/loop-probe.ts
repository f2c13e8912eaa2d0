import { readFileSync } from 'node:fs'
import { monitorEventLoopDelay, type ELDHistogram } from 'node:perf_hooks'
import type { EventBus } from '../core/bus/bus'

/** The environment variable that turns the probe on (any non-empty value). */
export const LOOP_PROBE_ENV = 'HOTARU_LOOP_PROBE'

export interface TurnLoopReport {
  sessionId: string
  status: string
  turnMs: number
  /** The longest the event loop was held during the turn (ms, wall clock, 1 ms resolution). */
  maxDelayMs: number
  p99DelayMs: number
  meanDelayMs: number
  /**
   * The most CPU time the main thread spent between two probe ticks 10 ms apart: a
   * task that computes (or forks) for 200 ms shows as ~200, while a delay that only
   * came from the machine being busy with other processes does not.
   */
  maxBusyMs: number
  /** Probe ticks during which the main thread ran for more than 50 ms. */
  busyOver50: number
  /**
   * The longest gap between two probe ticks, split by where the main thread spent it (ms):
   * running, runnable but waiting for a core (Linux schedstat; 0 elsewhere), and the rest,
   * which is time blocked in a system call, a page fault or a lock.
   */
  longestGap: { wallMs: number; runningMs: number; waitingForCpuMs: number; blockedMs: number }
  /** The process at the turn's end (MB): forking a child costs time in proportion to what is resident. */
  memory: { rss: number; heapUsed: number; external: number; arrayBuffers: number }
}

const RESOLUTION_MS = 1
const TICK_MS = 10
const ms = (ns: number) => Math.round(ns / 1e4) / 100
const megabytes = ({ rss, heapUsed, external, arrayBuffers }: NodeJS.MemoryUsage) => {
  const mb = (bytes: number) => Math.round(bytes / (1024 * 1024))
  return { rss: mb(rss), heapUsed: mb(heapUsed), external: mb(external), arrayBuffers: mb(arrayBuffers) }
}

interface TurnProbe {
  histogram: ELDHistogram
  ticker: NodeJS.Timeout
  start: number
  maxBusyMs: number
  busyOver50: number
  longestGap: TurnLoopReport['longestGap']
}

/** The main thread's time spent waiting for a core so far (ms): Linux's per-thread schedstat, 0 where there is none. */
function waitedForCpuMs(): number {
  if (process.platform !== 'linux') return 0
  try {
    const [, waitingNs] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')
    return Number(waitingNs) / 1e6
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0
    throw error
  }
}

/**
 * Measures how long the server's event loop is held during each turn and
 * reports one line per turn: wall-clock delay (`perf_hooks.monitorEventLoopDelay`)
 * and the main thread's own CPU time between ticks (`process.threadCpuUsage`).
 * The loop carries IPC, streamed text and terminal output, so any task longer
 * than a frame or two shows up as a stall in every client.
 */
export function startLoopProbe(bus: EventBus, report: (turn: TurnLoopReport) => void): () => void {
  const turns = new Map<string, TurnProbe>()
  const begin = (sessionId: string): void => {
    const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS })
    histogram.enable()
    let last = process.threadCpuUsage()
    let lastTick = performance.now()
    let lastWaited = waitedForCpuMs()
    const round = (value: number) => Math.round(value * 10) / 10
    const longestGap = { wallMs: 0, runningMs: 0, waitingForCpuMs: 0, blockedMs: 0 }
    const probe: TurnProbe = { histogram, start: performance.now(), maxBusyMs: 0, busyOver50: 0, longestGap, ticker: setInterval(() => {
      const used = process.threadCpuUsage(last)
      last = process.threadCpuUsage()
      const now = performance.now()
      const waited = waitedForCpuMs()
      const busy = (used.user + used.system) / 1000
      probe.maxBusyMs = Math.max(probe.maxBusyMs, round(busy))
      if (busy > 50) probe.busyOver50++
      const wall = now - lastTick
      if (wall > probe.longestGap.wallMs) {
        const waiting = waited - lastWaited
        probe.longestGap = { wallMs: round(wall), runningMs: round(busy), waitingForCpuMs: round(waiting), blockedMs: round(Math.max(0, wall - busy - waiting)) }
      }
      lastTick = now
      lastWaited = waited
    }, TICK_MS) }
    turns.set(sessionId, probe)
  }
  const end = (sessionId: string, status: string): void => {
    const probe = turns.get(sessionId)
    if (!probe) return
    turns.delete(sessionId)
    clearInterval(probe.ticker)
    probe.histogram.disable()
    report({
      sessionId,
      status,
      turnMs: Math.round(performance.now() - probe.start),
      maxDelayMs: ms(probe.histogram.max),
      p99DelayMs: ms(probe.histogram.percentile(99)),
      meanDelayMs: ms(probe.histogram.mean),
      maxBusyMs: probe.maxBusyMs,
      busyOver50: probe.busyOver50,
      longestGap: probe.longestGap,
      memory: megabytes(process.memoryUsage()),
    })
  }
  const events = bus.subscribe(({ channel, envelope }) => {
    const payload = envelope.payload as { sessionId?: string; status?: { type?: string } | string }
    const sessionId = payload.sessionId
    if (!sessionId) return
    const status = payload.status
    if (channel === 'session:status' && typeof status === 'object' && status.type === 'busy' && !turns.has(sessionId)) begin(sessionId)
    if (channel === 'agent:turnEnded') end(sessionId, String(status))
  })
  return () => {
    events.dispose()
    for (const probe of turns.values()) {
      clearInterval(probe.ticker)
      probe.histogram.disable()
    }
    turns.clear()
  }
}
