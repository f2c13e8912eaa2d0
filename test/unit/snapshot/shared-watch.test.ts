import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { FsChanged } from '@shared/schema/fs-events'
import { IgnoreRules } from '../../../src/main/core/project/ignore-rules'
import { ProjectWatcher } from '../../../src/main/core/project/watcher'
import type { SnapshotClient } from '../../../src/main/core/snapshot'
import { until } from '../../support/until'
import { sandbox, settle, write, type Sandbox } from './helpers'

let box: Sandbox
let engine: SnapshotClient
let watcher: ProjectWatcher
let batches: FsChanged[]

beforeEach(() => {
  box = sandbox()
  for (let i = 0; i < 50; i++) write(box.root, `src/f${i}.ts`, `export const v = ${i}\n`)
  write(box.root, '.gitignore', '*.log\n')
  batches = []
  watcher = new ProjectWatcher({ root: box.root, rules: new IgnoreRules(box.root), onChanges: (batch) => batches.push(batch), batchMs: 20 })
  engine = box.client()
})

afterEach(async () => {
  await watcher.dispose()
  await box.cleanup()
})

/** A snapshot, then one more once the first one's racy files are settled: the next one can trust the feed. */
async function settledSnapshot(): Promise<void> {
  await engine.snapshot()
  await settle()
  await engine.snapshot()
}

describe('one watch per project, shared by the file tree and the snapshot feed', () => {
  it('feeds the snapshot engine from the project watch: one change is one visited path, and the tree hears it too', async () => {
    await engine.watch(() => watcher.openFeed())
    expect((await engine.changeFeed()).live).toBe(true)
    await settledSnapshot()

    write(box.root, 'src/new.ts', 'export const n = 1\n')
    write(box.root, 'debug.log', 'ignored by the snapshot, shown in the tree\n')
    await until(() => batches.some((b) => b.changes.some((c) => c.path === 'debug.log')), 'the tree hears the ignored file')
    await engine.settleAfterUnlistedChange()
    expect((await engine.changeFeed()).pendingPaths).toBe(1)
    const next = await engine.snapshot()

    expect(next.stats.full).toBe(false)
    expect(next.changed).toBe(true)
    expect(batches.some((b) => b.changes.some((c) => c.path === 'src/new.ts' && c.kind === 'created'))).toBe(true)
    expect(await engine.diff((await engine.snapshot({ full: true })).id, next.id)).toEqual([])
  })

  it('stops trusting the feed when the project watch ends: the next snapshot walks the whole tree', async () => {
    await engine.watch(() => watcher.openFeed())
    await settledSnapshot()
    await watcher.dispose()
    await until(async () => !(await engine.changeFeed()).live, 'the feed is no longer live')

    writeFileSync(join(box.root, 'src/f3.ts'), 'export const v = "changed while nothing watched"\n')
    const next = await engine.snapshot()
    expect(next.stats.full).toBe(true)
    expect(next.changed).toBe(true)
  })

  it('a feed that joins a running watch rescans once, then follows it', async () => {
    await watcher.whenReady()
    write(box.root, 'src/before.ts', 'made before the feed joined\n')
    await engine.watch(() => watcher.openFeed())
    const first = await engine.snapshot()
    expect(first.stats.full).toBe(true)
    expect((await engine.manifest(first.id)).has('src/before.ts')).toBe(true)
    await settle()
    await engine.snapshot()

    write(box.root, 'src/after.ts', 'made after\n')
    await engine.settleAfterUnlistedChange()
    const next = await engine.snapshot()
    expect(next.stats.full).toBe(false)
    expect((await engine.manifest(next.id)).has('src/after.ts')).toBe(true)
  })
})
