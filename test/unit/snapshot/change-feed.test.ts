import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { sandbox, settle, waitFor, write, type Sandbox } from './helpers'

let box: Sandbox

beforeEach(() => {
  box = sandbox()
})

afterEach(async () => {
  await box.cleanup()
})

function populate(count: number): void {
  for (let i = 0; i < count; i++) write(box.root, `src/m${i % 10}/f${i}.ts`, `export const v${i} = ${i}\n`)
}

describe('change feed', () => {
  it('turns a small change into a snapshot that visits only the changed path', async () => {
    populate(200)
    const engine = box.engine()
    const watch = await engine.watch()
    expect(engine.changeFeed.live).toBe(true)
    const first = engine.snapshot()
    expect(first.stats.full).toBe(true)
    await settle()
    engine.snapshot() // settles the racy files of the first snapshot

    write(box.root, 'src/m3/f3.ts', 'export const v3 = "changed"\n')
    await waitFor(() => engine.changeFeed.pendingPaths > 0)
    const next = engine.snapshot()

    expect(next.stats.full).toBe(false)
    expect(next.stats.filesStatted).toBeLessThanOrEqual(5)
    expect(next.stats.filesHashed).toBe(1)
    expect(next.id).not.toBe(first.id)
    expect(next.id).toBe(engine.snapshot({ full: true }).id)
    await watch.dispose()
    expect(engine.changeFeed.live).toBe(false)
  })

  it('picks up deletions and new directories', async () => {
    populate(20)
    const engine = box.engine()
    const watch = await engine.watch()
    engine.snapshot()

    rmSync(join(box.root, 'src/m1'), { recursive: true })
    write(box.root, 'docs/guide/intro.md', '# intro\n')
    await waitFor(() => engine.changeFeed.pendingPaths >= 2)
    await new Promise((resolve) => setTimeout(resolve, 100))
    const next = engine.snapshot()

    expect(next.stats.full).toBe(false)
    const paths = [...engine.manifest(next.id).keys()]
    expect(paths).toContain('docs/guide/intro.md')
    expect(paths.some((p) => p.startsWith('src/m1/'))).toBe(false)
    expect(next.id).toBe(engine.snapshot({ full: true }).id)
    await watch.dispose()
  })

  it('ignores changes in ignored directories and rescans when asked', async () => {
    write(box.root, '.gitignore', 'dist/\n')
    write(box.root, 'a.ts', 'a')
    const engine = box.engine()
    const watch = await engine.watch()
    engine.snapshot()

    write(box.root, 'dist/bundle.js', 'built')
    write(box.root, 'node_modules/dep/index.js', 'dep')
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(engine.changeFeed.pendingPaths).toBe(0)

    engine.markAllDirty()
    expect(engine.snapshot().stats.full).toBe(true)
    await watch.dispose()
  })

  it('restarts and rescans when a .gitignore changes', async () => {
    write(box.root, '.gitignore', 'gen/\n')
    write(box.root, 'gen/out.js', 'generated')
    write(box.root, 'a.ts', 'a')
    const engine = box.engine()
    const watch = await engine.watch()
    expect([...engine.manifest(engine.snapshot().id).keys()].sort()).toEqual(['.gitignore', 'a.ts'])

    writeFileSync(join(box.root, '.gitignore'), '')
    await waitFor(() => engine.changeFeed.fullWalkPending)
    const next = engine.snapshot()

    expect(next.stats.full).toBe(true)
    expect([...engine.manifest(next.id).keys()].sort()).toEqual(['.gitignore', 'a.ts', 'gen/out.js'])
    await waitFor(() => engine.changeFeed.live)
    write(box.root, 'gen/more.js', 'now watched')
    await waitFor(() => engine.changeFeed.pendingPaths > 0)
    expect(engine.manifest(engine.snapshot().id).has('gen/more.js')).toBe(true)
    await watch.dispose()
  })

  it('walks fully when a caller marks a changed .gitignore', async () => {
    write(box.root, '.gitignore', 'gen/\n')
    write(box.root, 'gen/out.js', 'generated')
    const engine = box.engine()
    const watch = await engine.watch()
    engine.snapshot()

    writeFileSync(join(box.root, '.gitignore'), '')
    engine.markDirty(['.gitignore'])
    const next = engine.snapshot()

    expect(next.stats.full).toBe(true)
    expect(engine.manifest(next.id).has('gen/out.js')).toBe(true)
    await watch.dispose()
  })

  it('takes caller marks without waiting for the feed', async () => {
    populate(50)
    const engine = box.engine()
    const watch = await engine.watch()
    engine.snapshot()
    await settle()
    engine.snapshot()

    write(box.root, 'src/m0/f0.ts', 'edited by a tool\n')
    engine.markDirty(['src/m0/f0.ts'])
    const next = engine.snapshot()

    expect(next.stats.full).toBe(false)
    expect(engine.manifest(next.id).get('src/m0/f0.ts')).toMatchObject({ size: 17 })
    await watch.dispose()
  })
})
