import { describe, expect, it } from 'vitest'
import { parseFrontmatter } from '../../../src/main/core/extensions/frontmatter'

const doc = (...lines: string[]): string => lines.join('\n')

describe('parseFrontmatter', () => {
  it('reads key: value lines, quoted strings, comments and one level of indented map', () => {
    const parsed = parseFrontmatter(
      doc(
        '---',
        '# a comment',
        'name: pdf-tools',
        'description: Fill PDF forms: fields, checkboxes # kept as text',
        'quoted: "line\\nbreak \\"q\\""',
        "single: 'it''s'",
        'tools:',
        '  bash: false',
        '  "web*": \'true\'',
        '',
        'empty:',
        '---',
        '',
        '',
        '# Body',
        'text',
      ),
    )
    expect(parsed.present).toBe(true)
    expect(parsed.data).toEqual({
      name: 'pdf-tools',
      description: 'Fill PDF forms: fields, checkboxes # kept as text',
      quoted: 'line\nbreak "q"',
      single: "it's",
      tools: { bash: 'false', 'web*': 'true' },
      empty: {},
    })
    expect(parsed.body).toBe('# Body\ntext')
  })

  it('handles CRLF and a byte-order mark', () => {
    const parsed = parseFrontmatter('\uFEFF---\r\nname: x\r\n---\r\nbody\r\n')
    expect(parsed.data).toEqual({ name: 'x' })
    expect(parsed.body).toBe('body\n')
  })

  it('treats text without a leading --- as body only', () => {
    expect(parseFrontmatter('just a prompt\n---\n')).toEqual({ data: {}, body: 'just a prompt\n---\n', present: false })
  })

  it.each([
    [doc('---', 'name: x'), /no closing `---`/],
    [doc('---', 'name: x', 'name: y', '---'), /line 3: "name" is given twice/],
    [doc('---', 'tools:', '  - read', '---'), /line 3: lists are not supported/],
    [doc('---', '- read', '---'), /line 2: lists are not supported/],
    [doc('---', 'description: |', '  text', '---'), /line 2: multi-line values/],
    [doc('---', 'description: "unterminated', '---'), /line 2: invalid double-quoted string/],
    [doc('---', "description: 'bad ' quote'", '---'), /line 2: invalid single-quoted string/],
    [doc('---', '  indented: x', '---'), /line 2: unexpected indented line/],
    [doc('---', 'permission:', '  bash:', '    "*": ask', '---'), /line 3: "bash" has no value; deeper nesting/],
    [doc('---', 'tools:', '\tbash: false', '---'), /line 3: indent with spaces/],
    [doc('---', 'not a key value', '---'), /line 2: expected `key: value`/],
    [doc('---', 'key:value', '---'), /line 2: expected `key: value`/],
  ])('refuses %j', (text, error) => {
    expect(() => parseFrontmatter(text)).toThrow(error)
  })
})
