import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { FsChanged } from '@shared/schema/fs-events'
import type { FeedMessage } from '../../../src/main/core/project/watch-protocol'
import { IgnoreRules } from '../../../src/main/core/project/ignore-rules'
import { ProjectWatcher } from '../../../src/main/core/project/watcher'
import { tempDir, writeTree } from '../../support/temp'

const live: ProjectWatcher[] = []
afterEach(async () => {
  for (const w of live.splice(0)) await w.dispose()
})

async function watching(root: string) {
  const batches: FsChanged[] = []
  const watcher = new ProjectWatcher({ root, rules: new IgnoreRules(root), onChanges: (b) => batches.push(b), batchMs: 30 })
  live.push(watcher)
  await watcher.whenReady()
  const changes = () => batches.flatMap((b) => b.changes)
  const until = async (test: () => boolean, ms = 5000): Promise<void> => {
    const start = Date.now()
    while (!test()) {
      if (Date.now() - start > ms) throw new Error(`timed out; saw ${JSON.stringify(changes())}`)
      await new Promise((r) => setTimeout(r, 20))
    }
  }
  return { watcher, batches, changes, until }
}

describe('project watcher (real folders)', () => {
  it('reports created, changed and deleted files and folders with their entries', async () => {
    const root = writeTree(tempDir(), { 'a.txt': 'a' })
    const w = await watching(root)
    writeFileSync(join(root, 'new.ts'), 'x')
    mkdirSync(join(root, 'dir'))
    await w.until(() => w.changes().some((c) => c.path === 'new.ts') && w.changes().some((c) => c.path === 'dir'))
    expect(w.changes().find((c) => c.path === 'new.ts')).toMatchObject({
      kind: 'created',
      entry: { name: 'new.ts', kind: 'file', size: 1, ignored: false },
    })
    expect(w.changes().find((c) => c.path === 'dir')).toMatchObject({ kind: 'created', entry: { kind: 'dir' } })

    writeFileSync(join(root, 'dir/inner.txt'), 'deep')
    await w.until(() => w.changes().some((c) => c.path === 'dir/inner.txt'))

    w.batches.length = 0
    writeFileSync(join(root, 'a.txt'), 'changed!')
    await w.until(() => w.changes().some((c) => c.path === 'a.txt'))
    expect(w.changes().find((c) => c.path === 'a.txt')).toMatchObject({ kind: 'changed', entry: { size: 8 } })

    w.batches.length = 0
    rmSync(join(root, 'dir'), { recursive: true })
    rmSync(join(root, 'new.ts'))
    await w.until(() => ['dir', 'new.ts'].every((p) => w.changes().some((c) => c.path === p && c.kind === 'deleted')))
  })

  it('reports a rename as deleted + created', async () => {
    const root = writeTree(tempDir(), { 'old.txt': 'x' })
    const w = await watching(root)
    renameSync(join(root, 'old.txt'), join(root, 'new.txt'))
    await w.until(
      () =>
        w.changes().some((c) => c.path === 'old.txt' && c.kind === 'deleted') &&
        w.changes().some((c) => c.path === 'new.txt' && c.kind === 'created'),
    )
  })

  it('does not descend into gitignored folders but shows ignored files next to tracked ones', async () => {
    const root = writeTree(tempDir(), { '.gitignore': 'build/\n*.log\n', 'build/out.js': '', 'node_modules/x/i.js': '' })
    const w = await watching(root)
    writeFileSync(join(root, 'build/more.js'), 'x')
    writeFileSync(join(root, 'node_modules/x/j.js'), 'x')
    writeFileSync(join(root, 'debug.log'), 'x')
    writeFileSync(join(root, 'marker.txt'), 'x')
    await w.until(() => w.changes().some((c) => c.path === 'marker.txt'))
    await w.until(() => w.changes().some((c) => c.path === 'debug.log'))
    expect(w.changes().find((c) => c.path === 'debug.log')?.entry?.ignored).toBe(true)
    expect(w.changes().some((c) => c.path.startsWith('build/') || c.path.startsWith('node_modules/'))).toBe(false)
  })

  it('batches a burst into few events', async () => {
    const root = tempDir()
    const w = await watching(root)
    for (let i = 0; i < 200; i++) writeFileSync(join(root, `f${i}.txt`), String(i))
    await w.until(() => w.changes().filter((c) => c.kind === 'created').length === 200)
    expect(w.batches.length).toBeLessThan(20)
  })

  it('flags a changed .gitignore so listings below it are fetched again', async () => {
    const root = writeTree(tempDir(), { 'pkg/.gitignore': '', 'pkg/gen.ts': '' })
    const rules = new IgnoreRules(root)
    const batches: FsChanged[] = []
    const watcher = new ProjectWatcher({ root, rules, onChanges: (b) => batches.push(b), batchMs: 30 })
    live.push(watcher)
    await watcher.whenReady()
    expect(rules.isIgnored('pkg/gen.ts', false)).toBe(false)
    writeFileSync(join(root, 'pkg/.gitignore'), 'gen.ts\n')
    const start = Date.now()
    while (!batches.some((b) => b.invalidated.includes('pkg')) && Date.now() - start < 5000) await new Promise((r) => setTimeout(r, 20))
    expect(batches.some((b) => b.invalidated.includes('pkg'))).toBe(true)
    expect(rules.isIgnored('pkg/gen.ts', false)).toBe(true)
  })

  it('watches a folder a .gitignore edit stops ignoring, and has the tree list its folders again', async () => {
    const root = writeTree(tempDir(), { '.gitignore': 'gen/\n', 'gen/old.js': '', 'a.txt': '' })
    const w = await watching(root)
    // The watch starts over with the new rules; its feed says when every folder is watched again.
    const feed = w.watcher.openFeed()
    const heard: string[] = []
    feed.on('message', (message: FeedMessage) => heard.push(message.type))
    await w.until(() => heard.includes('ready'))
    const relisted = () => w.batches.filter((b) => b.invalidated.includes('')).length
    const before = relisted()
    writeFileSync(join(root, '.gitignore'), '')
    const restarted = () => heard.includes('restarting') && heard.lastIndexOf('ready') > heard.indexOf('restarting')
    await w.until(() => relisted() > before && restarted())
    feed.close()
    writeFileSync(join(root, 'gen/new.js'), 'now watched')
    await w.until(() => w.changes().some((c) => c.path === 'gen/new.js' && c.kind === 'created'))
  })
})
