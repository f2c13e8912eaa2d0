import { copyFileSync, existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { listFiles, sandbox, write, type Sandbox } from './helpers'

let box: Sandbox

beforeEach(() => {
  box = sandbox()
})

afterEach(async () => {
  await box.cleanup()
})

/** Enough compressible files for a bulk write (a pack), each above the compression threshold. */
function writeBulk(count = 40): void {
  for (let i = 0; i < count; i++) write(box.root, `src/f${i}.ts`, `export const value${i} = ${i}\n`.repeat(60))
}

function packs(kind: 'blobs' | 'trees' = 'blobs'): string[] {
  const dir = join(box.store, kind, 'packs')
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.pack')) : []
}

function storedBytes(): number {
  let total = 0
  for (const [, size] of listFiles(join(box.store, 'blobs'))) total += Number(size)
  return total
}

describe('deferred compression of bulk writes', () => {
  it('stores a first snapshot uncompressed, then compresses it while idle without changing any content', () => {
    writeBulk()
    const engine = box.engine()
    const first = engine.snapshot()
    expect(packs().every((name) => name.endsWith('.raw.pack'))).toBe(true)
    const rawBytes = storedBytes()

    let rounds = 0
    while (engine.compressDeferred().remaining > 0) rounds++

    expect(rounds).toBeLessThan(5)
    expect(packs().some((name) => name.endsWith('.raw.pack'))).toBe(false)
    expect(packs('trees').some((name) => name.endsWith('.raw.pack'))).toBe(false)
    expect(storedBytes()).toBeLessThan(rawBytes / 4)
    expect(engine.compressDeferred().remaining).toBe(0)
    // Same tree, same content: a restore after editing gets the original text back.
    write(box.root, 'src/f3.ts', 'changed\n')
    engine.restore(first.id)
    expect(readFileSync(join(box.root, 'src/f3.ts'), 'utf8')).toBe('export const value3 = 3\n'.repeat(60))
    expect(engine.snapshot().id).toBe(first.id)
  })

  it('compresses a pack a slice at a time, every object readable in between, and writes it once', () => {
    writeBulk(120)
    const engine = box.engine()
    const first = engine.snapshot()
    const rawBytes = storedBytes()
    let calls = 0
    while (engine.compressDeferred(4096).remaining > 0) {
      calls++
      expect(engine.fileVersions(`src/f${calls % 120}.ts`, first.id, first.id).old?.text).toBe(`export const value${calls % 120} = ${calls % 120}\n`.repeat(60))
    }
    expect(calls).toBeGreaterThan(10)
    expect(packs().some((name) => name.endsWith('.raw.pack'))).toBe(false)
    expect(packs()).toHaveLength(1)
    expect(storedBytes()).toBeLessThan(rawBytes / 4)
    write(box.root, 'src/f9.ts', 'changed\n')
    engine.restore(first.id)
    expect(readFileSync(join(box.root, 'src/f9.ts'), 'utf8')).toBe('export const value9 = 9\n'.repeat(60))
  })

  it('drops a sliced compression whose pack another engine compressed meanwhile, without writing it twice', () => {
    writeBulk(120)
    const engine = box.engine()
    const first = engine.snapshot()
    expect(engine.compressDeferred(4096).remaining).toBeGreaterThan(0)
    const other = box.engine()
    while (other.compressDeferred().remaining > 0) {
      // the whole pack at once
    }
    const compressed = packs()
    while (engine.compressDeferred(4096).remaining > 0) {
      // nothing left to do
    }
    expect(packs()).toEqual(compressed)
    expect(engine.fileVersions('src/f2.ts', first.id, first.id).old?.text).toBe('export const value2 = 2\n'.repeat(60))
  })

  it('an engine that knew the raw pack still reads its objects after another one compressed it', () => {
    writeBulk()
    const writer = box.engine()
    const first = writer.snapshot()
    const other = box.engine()
    while (other.compressDeferred().remaining > 0) {
      // one pack per call
    }

    const versions = writer.fileVersions('src/f7.ts', first.id, first.id)

    expect(versions.old?.text).toBe('export const value7 = 7\n'.repeat(60))
  })

  it('finishes a compression cut short between writing the new pack and deleting the raw one, without duplicates', () => {
    writeBulk()
    const engine = box.engine()
    const first = engine.snapshot()
    const [raw] = packs()
    const rawPath = join(box.store, 'blobs', 'packs', raw as string)
    const saved = `${rawPath}.saved`
    copyFileSync(rawPath, saved)
    engine.compressDeferred()
    // As if the process had ended before the raw pack was deleted.
    copyFileSync(saved, rawPath)
    const compressed = packs().filter((name) => !name.endsWith('.raw.pack'))

    while (engine.compressDeferred().remaining > 0) {
      // one pack per call
    }

    expect(packs().filter((name) => !name.endsWith('.raw.pack'))).toEqual(compressed)
    expect(packs().some((name) => name.endsWith('.raw.pack'))).toBe(false)
    expect(engine.fileVersions('src/f1.ts', first.id, first.id).old?.text).toBe('export const value1 = 1\n'.repeat(60))
  })
})
