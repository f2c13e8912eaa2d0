import { describe, expect, it } from 'vitest'
import { rankFiles } from '../../../src/renderer/src/features/search/rank'
import { parseGlobs, searchReducer, searchSummary, stepResult, type SearchRun } from '../../../src/renderer/src/features/search/search-model'

const query = { query: 'x', regex: false, caseSensitive: false, wholeWord: false }

describe('find in files state', () => {
  it('collects streamed files of the current search and ignores a replaced one', () => {
    let run: SearchRun | null = searchReducer(null, { type: 'start', searchId: 'a', query })
    run = searchReducer(run, { type: 'results', searchId: 'a', files: [{ path: 'f', matches: [{ line: 1, text: 'x', ranges: [[0, 1]] }] }] })
    run = searchReducer(run, { type: 'start', searchId: 'b', query })
    run = searchReducer(run, { type: 'results', searchId: 'a', files: [{ path: 'late', matches: [] }] })
    expect(run?.files).toEqual([])
    run = searchReducer(run, { type: 'results', searchId: 'b', files: [{ path: 'g', matches: [{ line: 2, text: 'xx', ranges: [[0, 1], [1, 2]] }] }] })
    run = searchReducer(run, { type: 'done', summary: { searchId: 'b', files: 1, matches: 2, truncated: false, cancelled: false } })
    expect(run?.status).toBe('done')
    expect(run && searchSummary(run)).toBe('1 result in 1 file')
  })

  it('keeps results found before a cancel and says so; reports errors', () => {
    let run = searchReducer(null, { type: 'start', searchId: 'a', query })
    run = searchReducer(run, { type: 'results', searchId: 'a', files: [{ path: 'f', matches: [{ line: 1, text: 'x', ranges: [] }] }] })
    run = searchReducer(run, { type: 'cancel', searchId: 'a' })
    run = searchReducer(run, { type: 'results', searchId: 'a', files: [{ path: 'g', matches: [] }] })
    expect(run?.files.map((f) => f.path)).toEqual(['f'])
    expect(run && searchSummary(run)).toBe('Cancelled: 1 result in 1 file')
    const bad = searchReducer(searchReducer(null, { type: 'start', searchId: 'c', query }), { type: 'done', summary: { searchId: 'c', files: 0, matches: 0, truncated: false, cancelled: false, error: 'regex parse error' } })
    expect(bad && searchSummary(bad)).toBe('regex parse error')
  })

  it('splits glob lists', () => {
    expect(parseGlobs(' src/**, *.ts ,,')).toEqual(['src/**', '*.ts'])
  })
})

describe('quick open ranking', () => {
  const files = ['README.md', 'src/app.ts', 'src/apply.ts', 'test/app.test.ts', 'docs/api.md']
  it('lists recent files first without a query', () => {
    expect(rankFiles('', files, ['test/app.test.ts', 'gone.ts']).map((r) => r.path).slice(0, 2)).toEqual(['test/app.test.ts', 'README.md'])
  })
  it('matches fuzzily and lifts recent files among equal matches', () => {
    const plain = rankFiles('app', files, [])
    expect(plain.map((r) => r.path)).toContain('src/app.ts')
    expect(plain[0]?.path).toBe('src/app.ts')
    const withRecent = rankFiles('app', files, ['test/app.test.ts'])
    expect(withRecent[0]?.path).toBe('test/app.test.ts')
    expect(rankFiles('zzz', files, [])).toEqual([])
  })
})

describe('stepResult (↑/↓ between the search box and the result rows)', () => {
  it('goes from the box to the first row, down to the last and stays, and back up to the box', () => {
    expect(stepResult(3, -1, 'ArrowDown')).toBe(0)
    expect(stepResult(3, 0, 'ArrowDown')).toBe(1)
    expect(stepResult(3, 2, 'ArrowDown')).toBe(2)
    expect(stepResult(3, 1, 'ArrowUp')).toBe(0)
    expect(stepResult(3, 0, 'ArrowUp')).toBe(-1)
  })
  it('stays in the box when there are no results', () => {
    expect(stepResult(0, -1, 'ArrowDown')).toBe(-1)
  })
})
