import { describe, expect, it } from 'vitest'
import { decodePtyFrame, encodePtyFrame } from '../../../src/shared/ipc/pty-frame'

describe('terminal output frames', () => {
  it('carry the envelope and the output as UTF-8, byte for byte', () => {
    const text = 'naïve \x1b[32mgrün\x1b[0m 日本語 🎉\r\n'
    const frame = encodePtyFrame({ projectId: 'p1', seq: 7, id: 't3', offset: 1234, chars: text.length }, text)
    const decoded = decodePtyFrame(frame.buffer as ArrayBuffer)
    expect(decoded.header).toEqual({ projectId: 'p1', seq: 7, id: 't3', offset: 1234, chars: text.length })
    expect(decoded.bytes).toEqual(new TextEncoder().encode(text))
    expect(new TextDecoder().decode(decoded.bytes)).toBe(text)
  })

  it('decode from a view into a larger buffer (as a socket library hands them over)', () => {
    const frame = encodePtyFrame({ seq: 1, id: 't1', offset: 0, chars: 2 }, 'ok')
    const padded = new Uint8Array(frame.length + 8)
    padded.set(frame, 4)
    const decoded = decodePtyFrame(padded.subarray(4, 4 + frame.length))
    expect(decoded.header.projectId).toBeUndefined()
    expect(new TextDecoder().decode(decoded.bytes)).toBe('ok')
  })

  it('refuse what is not a terminal frame, saying why', () => {
    expect(() => decodePtyFrame(new Uint8Array([1, 0]))).toThrow(/too short/)
    expect(() => decodePtyFrame(new Uint8Array([9, 0, 0, 0, 0]))).toThrow(/unknown binary frame kind 9/)
    expect(() => decodePtyFrame(new Uint8Array([1, 200, 0, 0, 0, 1]))).toThrow(/overruns/)
    const bad = new TextEncoder().encode('{"seq":1}')
    const frame = new Uint8Array(5 + bad.length)
    frame[0] = 1
    frame[1] = bad.length
    frame.set(bad, 5)
    expect(() => decodePtyFrame(frame)).toThrow(/header is malformed/)
  })
})
