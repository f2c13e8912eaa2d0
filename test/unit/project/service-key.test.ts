import { describe, expect, expectTypeOf, it } from 'vitest'
import { ProjectInstance } from '../../../src/main/core/project/instance'
import { ServiceKey } from '../../../src/main/core/project/service-key'
import { tempDir } from '../../support/temp'

class Counter {
  disposed = 0
  constructor(readonly label: string) {}
  dispose(): void {
    this.disposed++
  }
}

const COUNTER = new ServiceKey<Counter>('counter')
const OTHER = new ServiceKey<Counter>('counter')

function project(id: string): ProjectInstance {
  return new ProjectInstance({ id, root: tempDir(), name: id })
}

describe('per-project services by typed key', () => {
  it('makes one instance per key and project, typed by its key, and disposes it with the project', async () => {
    const a = project('servicekeyproj01')
    const b = project('servicekeyproj02')
    const first = a.service(COUNTER, () => new Counter('a'))
    expectTypeOf(first).toEqualTypeOf<Counter>()
    expectTypeOf(a.existing(COUNTER)).toEqualTypeOf<Counter | undefined>()
    expect(a.service(COUNTER, () => new Counter('again'))).toBe(first)
    // Another key with the same name is another kind; another project has its own instance.
    expect(a.service(OTHER, () => new Counter('other')).label).toBe('other')
    expect(b.existing(COUNTER)).toBeUndefined()
    await a.dispose()
    expect(first.disposed).toBe(1)
    expect(a.existing(COUNTER)).toBeUndefined()
    expect(() => a.service(COUNTER, () => new Counter('late'))).toThrow(expect.objectContaining({ name: 'ProjectNotOpen' }))
    await b.dispose()
  })

  it('releases one service now and makes it anew on the next use', async () => {
    const a = project('servicekeyproj03')
    const first = a.service(COUNTER, () => new Counter('first'))
    await a.releaseService(COUNTER)
    expect(first.disposed).toBe(1)
    expect(a.existing(COUNTER)).toBeUndefined()
    const second = a.service(COUNTER, () => new Counter('second'))
    expect(second).not.toBe(first)
    await a.dispose()
    expect(second.disposed).toBe(1)
    expect(first.disposed).toBe(1)
  })

  it('refuses a plain string as a key at compile time', () => {
    const a = project('servicekeyproj04')
    // @ts-expect-error services are found by a typed ServiceKey, not by name
    expect(() => a.service('counter', () => new Counter('x'))).toThrow()
  })
})
