import { describe, expect, it } from 'vitest'
import { RecordSplitter, type SplitField } from '../../../src/main/core/tools/search/record-splitter'

function split(chunks: string[], separators: number[], cap: number | number[]): Array<Array<[string, number]>> {
  const records: Array<Array<[string, number]>> = []
  const splitter = new RecordSplitter(separators, cap, (fields: SplitField[]) => records.push(fields.map((f) => [f.bytes.toString(), f.dropped])))
  for (const chunk of chunks) splitter.push(Buffer.from(chunk))
  splitter.end()
  return records
}

describe('RecordSplitter', () => {
  it('splits grep output at NUL then newline, so a path may hold a newline', () => {
    expect(split(['new\nli', 'ne.txt\x001:needle\na.txt', '\x002:x\n'], [0, 10], 100)).toEqual([
      [['new\nline.txt', 0], ['1:needle', 0]],
      [['a.txt', 0], ['2:x', 0]],
    ])
  })

  it('keeps the cap of a long field and counts the rest, across chunks', () => {
    expect(split(['abcdef', 'ghij', 'kl\nxy'], [10], 4)).toEqual([[['abcd', 8]], [['xy', 0]]])
    expect(split(['p\x00abcdefgh\n'], [0, 10], [10, 3])).toEqual([[['p', 0], ['abc', 5]]])
  })
})
