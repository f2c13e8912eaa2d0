import { describe, expect, it } from 'vitest'
import { OutputRing } from '../../../src/main/core/pty/output-ring'

describe('terminal output ring', () => {
  it('keeps the grid size each stretch of output was written at', () => {
    const ring = new OutputRing({ cols: 120, rows: 30 })
    ring.push('wide line\r\n')
    ring.resized(80, 24)
    ring.push('narrow')
    ring.resized(80, 24) // the same size again is no new stretch
    ring.push(' line\r\n')
    expect(ring.snapshot()).toEqual({
      data: 'wide line\r\nnarrow line\r\n',
      end: 24,
      sizes: [
        { at: 0, cols: 120, rows: 30 },
        { at: 11, cols: 80, rows: 24 },
      ],
    })
  })

  it('a resize without output in between replaces the previous size', () => {
    const ring = new OutputRing({ cols: 120, rows: 30 })
    ring.push('a')
    ring.resized(100, 30)
    ring.resized(90, 30)
    ring.push('b')
    expect(ring.snapshot().sizes).toEqual([
      { at: 0, cols: 120, rows: 30 },
      { at: 1, cols: 90, rows: 30 },
    ])
    ring.resized(120, 30)
    ring.resized(90, 30)
    expect(ring.snapshot().sizes).toHaveLength(2)
  })

  it('when old output is dropped, the size in effect at the new start comes first', () => {
    const ring = new OutputRing({ cols: 120, rows: 30 }, 10)
    ring.push('1234567')
    ring.resized(80, 24)
    ring.push('abcdefg')
    ring.resized(60, 20)
    ring.push('XY')
    const replay = ring.snapshot()
    expect(replay.data).toBe('abcdefgXY')
    expect(replay.end).toBe(16)
    expect(replay.sizes).toEqual([
      { at: 0, cols: 80, rows: 24 },
      { at: 7, cols: 60, rows: 20 },
    ])
  })

  it('a single chunk larger than the ring keeps its tail at its size', () => {
    const ring = new OutputRing({ cols: 120, rows: 30 }, 4)
    ring.resized(70, 20)
    ring.push('0123456789')
    expect(ring.snapshot()).toEqual({ data: '6789', end: 10, sizes: [{ at: 0, cols: 70, rows: 20 }] })
  })
})
