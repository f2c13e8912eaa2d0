import { describe, expect, it } from 'vitest'
import { applyEdit } from '../../../src/main/core/tools/edit/apply-edit'

interface Case {
  name: string
  content: string
  old: string
  new: string
  replaceAll?: boolean
  expected: string
  matcher: string
}

const CASES: Case[] = [
  { name: 'exact', content: 'a\nfoo()\nb\n', old: 'foo()', new: 'bar()', expected: 'a\nbar()\nb\n', matcher: 'exact' },
  {
    name: 'indentation off by one level, new text re-indented',
    content: 'class A {\n    run() {\n        go()\n    }\n}\n',
    old: 'run() {\n    go()\n}',
    new: 'run() {\n    stop()\n}',
    expected: 'class A {\n    run() {\n        stop()\n    }\n}\n',
    matcher: 'indentation-flexible',
  },
  {
    name: 'trailing spaces in the file',
    content: 'if (x) {   \n  y()\t\n}\n',
    old: 'if (x) {\n  y()\n}',
    new: 'if (x) {\n  z()\n}',
    expected: 'if (x) {\n  z()\n}\n',
    matcher: 'line-trimmed',
  },
  {
    name: 'collapsed whitespace within a line',
    content: 'const  x =   1;\n',
    old: 'const x = 1;',
    new: 'const x = 2;',
    expected: 'const x = 2;\n',
    matcher: 'whitespace-normalized',
  },
  {
    name: 'over-escaped newline and quotes',
    content: 'log("a\\nb")\nsay("hi")\n',
    old: 'say(\\"hi\\")',
    new: 'say(\\"bye\\")',
    expected: 'log("a\\nb")\nsay("bye")\n',
    matcher: 'escape-normalized',
  },
  {
    name: 'stray blank lines around the text',
    content: 'alpha beta gamma\n',
    old: '\n\nbeta\n',
    new: '\n\nBETA\n',
    expected: 'alpha BETA gamma\n',
    matcher: 'trimmed-boundary',
  },
  {
    name: 'block anchors with a drifted middle line',
    content: 'function f() {\n  const total = a + b\n  return total\n}\n',
    old: 'function f() {\n  const totl = a + b\n  return total\n}',
    new: 'function f() {\n  return a + b\n}',
    expected: 'function f() {\n  return a + b\n}\n',
    matcher: 'block-anchor',
  },
  {
    name: 'CRLF file stays CRLF',
    content: 'one\r\ntwo\r\nthree\r\n',
    old: 'two\nthree',
    new: 'TWO\nTHREE\nFOUR',
    expected: 'one\r\nTWO\r\nTHREE\r\nFOUR\r\n',
    matcher: 'exact',
  },
  {
    name: 'CRLF file with fuzzy indentation',
    content: 'a\r\n    b\r\n    c\r\n',
    old: '  b\n  c\n',
    new: '  B\n  C\n',
    expected: 'a\r\n    B\r\n    C\r\n',
    matcher: 'indentation-flexible',
  },
  {
    name: 'no trailing newline is neither added',
    content: 'x = 1\ny = 2',
    old: 'y = 2',
    new: 'y = 3',
    expected: 'x = 1\ny = 3',
    matcher: 'exact',
  },
  {
    name: 'nor added by a line-based match',
    content: 'x = 1\n  y = 2',
    old: 'y = 2\n',
    new: 'y = 3\n',
    expected: 'x = 1\n  y = 3',
    matcher: 'indentation-flexible',
  },
  {
    name: 'replaceAll',
    content: 'foo foo\nfoo\n',
    old: 'foo',
    new: 'bar',
    replaceAll: true,
    expected: 'bar bar\nbar\n',
    matcher: 'exact',
  },
  {
    name: 'bytes outside the span untouched (mixed endings, tabs, unicode)',
    content: 'α\tβ\r\nkeep  me\nchange\n\ttail\r\n',
    old: 'change',
    new: 'changed',
    expected: 'α\tβ\r\nkeep  me\nchanged\n\ttail\r\n',
    matcher: 'exact',
  },
]

describe('edit matcher cascade', () => {
  it.each(CASES)('$name', (c) => {
    const result = applyEdit(c.content, c.old, c.new, c.replaceAll ?? false, 'f.ts')
    expect(result.content).toBe(c.expected)
    expect(result.matcher).toBe(c.matcher)
  })

  it('refuses an ambiguous match and says how to fix it', () => {
    expect(() => applyEdit('x()\ny()\nx()\n', 'x()', 'z()', false, 'f.ts')).toThrow(/matches 2 places.*lines 1, 3.*replaceAll/s)
  })

  it('refuses an ambiguous fuzzy match too', () => {
    expect(() => applyEdit('  a\n  b\n\n    a\n    b\n', 'a\nb', 'c', false, 'f.ts')).toThrow(/matches 2 places/)
  })

  it('reports a missing text with the closest line', () => {
    expect(() => applyEdit('function hello() {}\n', 'function helo() {}', 'x', false, 'f.ts')).toThrow(/not found.*similar line is 1/s)
  })

  it('refuses identical and empty strings', () => {
    expect(() => applyEdit('a', 'a', 'a', false, 'f.ts')).toThrow(/identical/)
    expect(() => applyEdit('a', '', 'b', false, 'f.ts')).toThrow(/empty/)
  })

  it('does not accept a block-anchor match whose middle differs too much', () => {
    const content = 'start\nsomething entirely different here\nend\n'
    expect(() => applyEdit(content, 'start\nnothing alike\nend', 'x', false, 'f.ts')).toThrow(/not found/)
  })
})
