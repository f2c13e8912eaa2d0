import { describe, expect, it } from 'vitest'
import { EventBus } from '../../../src/main/core/bus/bus'
import { startLoopProbe, type TurnLoopReport } from '../../../src/main/serve/loop-probe'

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('event-loop probe of hotaru serve', () => {
  it('reports, per turn, a task that held the event loop', async () => {
    const bus = new EventBus()
    const reports: TurnLoopReport[] = []
    const stop = startLoopProbe(bus, (report) => reports.push(report))
    bus.publish('session:status', { sessionId: 's1', status: { type: 'busy' } }, 'p1')
    await tick(30)
    const start = performance.now()
    while (performance.now() - start < 150) {
      // Holds the loop the way a synchronous walk or a big JSON.stringify would.
    }
    await tick(30)
    bus.publish('agent:turnEnded', { sessionId: 's1', status: 'completed' }, 'p1')
    // Another session's end and a turn that never started are not reports.
    bus.publish('agent:turnEnded', { sessionId: 's2', status: 'completed' }, 'p1')
    stop()
    expect(reports).toHaveLength(1)
    expect(reports[0]).toMatchObject({ sessionId: 's1', status: 'completed' })
    expect(reports[0]?.maxDelayMs).toBeGreaterThanOrEqual(140)
    expect(reports[0]?.turnMs).toBeGreaterThanOrEqual(200)
    expect(reports[0]?.memory.rss).toBeGreaterThan(0)
  })
})
