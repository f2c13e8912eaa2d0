import { readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { IgnoreRules } from '../../../src/main/core/project/ignore-rules'
import { ProjectWatcher } from '../../../src/main/core/project/watcher'
import { SnapshotClient } from '../../../src/main/core/snapshot'
import { tempDir, writeTree } from '../../support/temp'
import { until } from '../../support/until'

/** The niceness of every thread of this process with the given name (`/proc/self/task/*`). */
function niceness(name: string): number[] {
  const found: number[] = []
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      if (readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim() !== name) continue
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
      found.push(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]))
    } catch (error) {
      // A thread that ended while the list was read.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
  }
  return found
}

function ownNiceness(): number {
  const stat = readFileSync(`/proc/${readlinkSync('/proc/thread-self')}/stat`, 'utf8')
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])
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

    await until(() => niceness('hotaru-snapshot').includes(10) && niceness('hotaru-watch').includes(10), 'both threads are lowered')
    expect(ownNiceness()).toBe(0)
    // libuv's one pool serves every thread's file operations: it must not have inherited the lowered priority.
    expect(niceness('libuv-worker').length).toBeGreaterThan(0)
    expect(niceness('libuv-worker').every((nice) => nice === 0)).toBe(true)
  })

  it('leave the snapshot walk of a one-shot command at normal priority', async () => {
    const root = writeTree(tempDir(), { 'a.txt': 'a' })
    const engine = new SnapshotClient({ root, storeDir: tempDir() })
    open.push(engine)
    await engine.snapshot()
    expect(niceness('hotaru-snapshot')).toEqual([0])
  })
})
