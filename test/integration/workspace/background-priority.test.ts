import { pbkdf2 } from 'node:crypto'
import { readlinkSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { IgnoreRules } from '../../../src/main/core/project/ignore-rules'
import { ProjectWatcher } from '../../../src/main/core/project/watcher'
import { SnapshotClient } from '../../../src/main/core/snapshot'
import { niceness, threadNiceness } from '../../support/niceness'
import { testServices } from '../../support/services'
import { tempDir, writeTree } from '../../support/temp'
import { until } from '../../support/until'

/** The niceness of every thread of this process with the given name. */
const threadsNamed = (name: string): number[] => threadNiceness('self').get(name) ?? []

const ownNiceness = (): number => niceness(readlinkSync('/proc/thread-self'))

/** Work queued on libuv's thread pool without a pause until disposed (short key derivations). */
function keepFilePoolBusy(): { dispose(): Promise<void> } {
  let running = true
  const inFlight = new Set<Promise<void>>()
  const next = (): void => {
    if (!running) return
    const job = new Promise<void>((resolve) => pbkdf2('p', 's', 20_000, 32, 'sha256', () => resolve())).then(() => {
      inFlight.delete(job)
      next()
    })
    inFlight.add(job)
  }
  for (let i = 0; i < 8; i++) next()
  return {
    dispose: async () => {
      running = false
      await Promise.all(inFlight)
    },
  }
}

const open: Array<{ dispose(): Promise<void> }> = []
afterEach(async () => {
  for (const item of open.splice(0)) await item.dispose()
})

describe.runIf(process.platform === 'linux')('background threads of a host with a UI', () => {
  it('run the snapshot walk and the file watch at a lower priority, and leave this thread and the file pool at normal priority', async () => {
    const root = writeTree(tempDir(), { 'a.txt': 'a', 'src/b.ts': 'b' })
    const watcher = new ProjectWatcher({ root, rules: new IgnoreRules(root), onChanges: () => {} })
    open.push(watcher)
    const engine = new SnapshotClient({ root, storeDir: tempDir(), background: true })
    open.push(engine)
    await watcher.whenReady()
    await engine.snapshot()

    await until(() => threadsNamed('hotaru-snapshot').includes(10) && threadsNamed('hotaru-watch').includes(10), 'both threads are lowered')
    expect(ownNiceness()).toBe(0)
    // libuv's one pool serves every thread's file operations: it must not have inherited the lowered priority.
    expect(threadsNamed('libuv-worker').length).toBeGreaterThan(0)
    expect(threadsNamed('libuv-worker').every((nice) => nice === 0)).toBe(true)
  })

  it('lower the snapshot worker before its first walk, which it takes without a break', async () => {
    // A first request queued while the worker starts: the first walk of the tree (seconds on a large one).
    const files: Record<string, string> = {}
    for (let i = 0; i < 4000; i++) files[`d${i % 40}/f${i}.txt`] = `content ${i}\n`.repeat(20)
    const root = writeTree(tempDir(), files)
    // libuv's file pool kept busy, as a watch's crawl keeps it in the app: a lowering that waited
    // for a file operation of the worker would come only after the walk.
    const busy = keepFilePoolBusy()
    const engine = new SnapshotClient({ root, storeDir: tempDir(), background: true })
    open.push(engine, busy)
    const samples: { at: number; nice: number[] }[] = []
    const started = performance.now()
    const sampler = setInterval(() => samples.push({ at: performance.now(), nice: threadsNamed('hotaru-snapshot') }), 2)
    try {
      await engine.snapshot()
    } finally {
      clearInterval(sampler)
    }
    const ended = performance.now()
    // The worker's start (loading its code) may be seen at normal priority; the walk, which fills the rest, not.
    const walk = samples.filter((sample) => sample.at > started + (ended - started) / 2 && sample.nice.length > 0)
    expect(walk.length).toBeGreaterThan(5)
    expect(walk.filter((sample) => sample.nice[0] !== 10)).toEqual([])
  })

  it('leave a snapshot walk at normal priority where its client does not ask for background work', async () => {
    const root = writeTree(tempDir(), { 'a.txt': 'a' })
    const engine = new SnapshotClient({ root, storeDir: tempDir() })
    open.push(engine)
    await engine.snapshot()
    expect(threadsNamed('hotaru-snapshot')).toEqual([0])
  })
})

describe.runIf(process.platform === 'linux')('background threads of a one-shot command', () => {
  it('run the checkpoint walk at a lower priority too: the main thread carries the turn', async () => {
    const services = testServices({ transport: 'cli' })
    const project = services.projects.openFolder(writeTree(tempDir(), { 'a.txt': 'a' }))
    await services.checkpoints.engine(project).snapshot()
    expect(threadsNamed('hotaru-snapshot')).toEqual([10])
    expect(ownNiceness()).toBe(0)
  })
})
