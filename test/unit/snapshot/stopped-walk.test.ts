import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SnapshotErrorNames } from '../../../src/main/core/snapshot'
import { read, sandbox, settle, write, type Sandbox } from './helpers'

let box: Sandbox

beforeEach(() => {
  box = sandbox()
})

afterEach(async () => {
  await box.cleanup()
})

const FILES = 1200

function fillTree(): void {
  for (let i = 0; i < FILES; i++) write(box.root, `src/d${i % 12}/f${i}.ts`, `export const v${i} = ${i}\n`)
}

/** The error a call failed with (the test fails if it did not). */
async function failure(call: Promise<unknown>): Promise<Error & { data?: Record<string, unknown> }> {
  try {
    await call
  } catch (error) {
    return error as Error & { data?: Record<string, unknown> }
  }
  throw new Error('expected the call to fail')
}

describe('a walk stopped before it is done', () => {
  it('keeps what it hashed, so the next engine on the store hashes only the rest', async () => {
    fillTree()
    // Outside the racy window of the index's save, so the next engine trusts what was hashed.
    await settle()
    const flag = new Int32Array(new SharedArrayBuffer(4))
    // Raised before the walk: it stops at its first check, however fast the machine is.
    Atomics.store(flag, 0, 1)
    let stopped: unknown
    try {
      box.engine({ walkStop: flag }).snapshot({ stopTicket: 1 })
    } catch (error) {
      stopped = error
    }
    expect((stopped as { name?: string }).name).toBe(SnapshotErrorNames.WalkStopped)
    const hashedFirst = (stopped as { data: { filesHashed: number } }).data.filesHashed
    expect(hashedFirst).toBeGreaterThan(0)
    expect(hashedFirst).toBeLessThan(FILES)

    // Another process later: what the stopped walk stored is trusted, the rest is read now.
    const next = box.engine()
    const whole = next.snapshot()
    expect(whole.stats.filesHashed).toBe(FILES - hashedFirst)
    expect(next.manifest(whole.id).size).toBe(FILES)
    // Content stored by the stopped walk restores like any other.
    writeFileSync(join(box.root, 'src/d0/f0.ts'), 'changed\n')
    next.restore(whole.id)
    expect(read(box.root, 'src/d0/f0.ts')).toBe('export const v0 = 0\n')
  })

  it('a later walk with a higher ticket runs whole', () => {
    fillTree()
    const flag = new Int32Array(new SharedArrayBuffer(4))
    Atomics.store(flag, 0, 1)
    const result = box.engine({ walkStop: flag }).snapshot({ stopTicket: 2 })
    expect(result.stats.filesHashed).toBe(FILES)
  })

  it('stops a walk in the worker thread when the client asks, even while the worker is busy with it', async () => {
    fillTree()
    const client = box.client()
    const walk = client.snapshot({ stoppable: true })
    client.stopWalks()
    const error = await failure(walk)
    expect(error.name).toBe(SnapshotErrorNames.WalkStopped)
    expect(error.data?.filesHashed).toBeLessThan(FILES)
    // A walk asked for after the stop is not affected.
    const whole = await client.snapshot({ stoppable: true })
    expect((await client.manifest(whole.id)).size).toBe(FILES)
  })
})
