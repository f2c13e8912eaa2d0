import { describe, expect, it } from 'vitest'
import { BoundedText } from '../../../src/main/core/util/bounded-text'
import { LineTail } from '../../../src/main/core/util/line-tail'
import { OutputRing } from '../../../src/main/core/pty/output-ring'

describe('BoundedText', () => {
  it('keeps the newest characters, counts what it dropped and reads from absolute positions', () => {
    const text = new BoundedText({ maxChars: 10 })
    text.append('abcdef')
    const seen = text.length
    text.append('ghij')
    expect(text.text()).toBe('abcdefghij')
    text.append('klmno')
    expect(text.text()).toBe('fghijklmno')
    expect(text.dropped).toBe(5)
    expect(text.length).toBe(15)
    expect(text.tail(3)).toBe('mno')
    // The reader saw 6 characters; 'f' is still kept, nothing missed.
    expect(text.since(seen)).toEqual({ text: 'ghijklmno', missed: 0 })
    // A reader that saw nothing missed the five dropped characters.
    expect(text.since(0)).toEqual({ text: 'fghijklmno', missed: 5 })
  })

  it('cuts into one oversized write and drops whole older chunks first', () => {
    const text = new BoundedText({ maxChars: 4 })
    text.append('ab')
    text.append('cdefgh')
    expect(text.text()).toBe('efgh')
    expect(text.dropped).toBe(4)
  })

  it('with keep: head, keeps the first characters and counts the rest', () => {
    const text = new BoundedText({ maxChars: 5, keep: 'head' })
    text.append('{"ok"')
    text.append(': true}')
    text.append('more')
    expect(text.text()).toBe('{"ok"')
    expect(text.dropped).toBe(11)
  })

  it('with wholeChunks, drops whole chunks while others remain', () => {
    const text = new BoundedText({ maxChars: 6, wholeChunks: true })
    text.append('\x1b[1m')
    text.append('ab')
    text.append('\x1b[0m')
    // The first escape sequence goes whole instead of leaving "[1m" behind.
    expect(text.text()).toBe('ab\x1b[0m')
    text.append('0123456789')
    expect(text.text()).toBe('456789')
  })

  it('decodes UTF-8 per stream, so a character split between reads stays whole', () => {
    const text = new BoundedText({ maxChars: 100 })
    const euro = Buffer.from('€', 'utf8')
    text.write(euro.subarray(0, 1), 'stdout')
    text.write(Buffer.from('x'), 'stderr')
    text.write(euro.subarray(1), 'stdout')
    text.write(Buffer.from([0xe2]), 'stderr')
    text.end()
    expect(text.text()).toBe('x€\ufffd')
  })
})

describe('LineTail and OutputRing over BoundedText', () => {
  it('LineTail keeps the last lines, cut to length, plus the unfinished one', () => {
    const tail = new LineTail(3, 10)
    tail.push('one\ntwo\nthr')
    tail.push('ee\r\nfour\nfive is a long line\npartial')
    expect(tail.get()).toEqual(['three', 'four', 'five is a …', 'partial'])
    expect(tail.summary(2)).toBe('five is a …\npartial')
  })

  it('LineTail stays bounded under a flood of output', () => {
    const tail = new LineTail(2, 5)
    for (let i = 0; i < 10_000; i++) tail.push(`line ${i}\n`)
    expect(tail.get()).toEqual(['line …', 'line …'])
    tail.push('end')
    expect(tail.get().at(-1)).toBe('end')
  })

  it('OutputRing replays at most its capacity and knows the end offset', () => {
    const ring = new OutputRing({ cols: 80, rows: 24 }, 8)
    ring.push('hello ')
    ring.push('world')
    expect(ring.snapshot()).toMatchObject({ data: 'world', end: 11 })
    ring.push('0123456789')
    expect(ring.snapshot()).toMatchObject({ data: '23456789', end: 21 })
  })
})
