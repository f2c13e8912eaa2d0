import { describe, expect, it } from 'vitest'
import { Emitter } from '../../../src/main/core/util/emitter'
import { setLogLevel } from '../../../src/main/core/util/log'

describe('Emitter', () => {
  it('calls the listeners registered at the time of the emit, in order, until their subscription is disposed', () => {
    const emitter = new Emitter<number>('test')
    const seen: string[] = []
    const offA = emitter.on((n) => seen.push(`a${n}`))
    emitter.on((n) => {
      seen.push(`b${n}`)
      // Registered during an emit: hears the next one only.
      if (n === 1) emitter.on((m) => seen.push(`c${m}`))
    })
    emitter.emit(1)
    offA.dispose()
    emitter.emit(2)
    expect(seen).toEqual(['a1', 'b1', 'b2', 'c2'])
    emitter.clear()
    emitter.emit(3)
    expect(seen).toHaveLength(4)
  })

  it('removes a listener once however often its subscription is disposed, leaving the others', () => {
    const emitter = new Emitter<number>('test')
    const seen: string[] = []
    const a = emitter.on((n) => seen.push(`a${n}`))
    emitter.on((n) => seen.push(`b${n}`))
    a.dispose()
    a.dispose()
    emitter.emit(1)
    expect(seen).toEqual(['b1'])
  })

  it('keeps a listener that throws from breaking the emitting code or the other listeners', () => {
    setLogLevel('silent')
    const emitter = new Emitter<string>('trust')
    const seen: string[] = []
    emitter.on(() => {
      throw new Error('broken observer')
    })
    emitter.on((value) => seen.push(value))
    expect(() => emitter.emit('x')).not.toThrow()
    expect(seen).toEqual(['x'])
    setLogLevel('warn')
  })
})
