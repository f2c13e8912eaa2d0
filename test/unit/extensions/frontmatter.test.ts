import { describe, expect, it } from 'vitest'
import { parseFrontmatter } from '../../../src/main/core/extensions/frontmatter'

const doc = (...lines: string[]): string => lines.join('\n')

describe('parseFrontmatter', () => {
  it('reads YAML: plain and quoted strings, comments, block scalars, lists and nested maps, every scalar as text', () => {
    const parsed = parseFrontmatter(
      doc(
        '---',
        '# a comment',
        'name: pdf-tools',
        'description: >-',
        '  Fill PDF forms,',
        '  merge and split files.',
        'usage: |',
        '  line one',
        '  line two',
        'quoted: "line\\nbreak \\"q\\""',
        "single: 'it''s: fine'",
        'maxTurns: 12',
        'tools:',
        '  bash: false',
        '  "web*": \'true\'',
        'allowed:',
        '  - read',
        '  - grep',
        'permission: {"bash": {"*": ask, "git diff *": allow}}',
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
    expect(parsed.notice).toBeUndefined()
    expect(parsed.data).toEqual({
      name: 'pdf-tools',
      description: 'Fill PDF forms, merge and split files.',
      usage: 'line one\nline two\n',
      quoted: 'line\nbreak "q"',
      single: "it's: fine",
      maxTurns: '12',
      tools: { bash: 'false', 'web*': 'true' },
      allowed: ['read', 'grep'],
      permission: { bash: { '*': 'ask', 'git diff *': 'allow' } },
      empty: '',
    })
    expect(parsed.body).toBe('# Body\ntext')
  })

  it('handles CRLF and a byte-order mark', () => {
    const parsed = parseFrontmatter('\uFEFF---\r\nname: x\r\n---\r\nbody\r\n')
    expect(parsed.data).toEqual({ name: 'x' })
    expect(parsed.body).toBe('body\n')
  })

  it('treats text without a leading --- as body only, and an empty block as no keys', () => {
    expect(parseFrontmatter('just a prompt\n---\n')).toEqual({ data: {}, body: 'just a prompt\n---\n', present: false })
    expect(parseFrontmatter('---\n---\nbody')).toEqual({ data: {}, body: 'body', present: true })
  })

  it('reads a block that is not valid YAML as plain key: value lines, with a notice naming the YAML error', () => {
    const parsed = parseFrontmatter(doc('---', 'name: pdf', 'description: Fill PDF forms: fields, checkboxes # all of it', 'hint: @mention me', '---', 'body'))
    expect(parsed.data).toEqual({ name: 'pdf', description: 'Fill PDF forms: fields, checkboxes # all of it', hint: '@mention me' })
    expect(parsed.body).toBe('body')
    expect(parsed.notice).toMatch(/not valid YAML \(line 3: .*\); it was read as plain `key: value` lines/)
  })

  it.each([
    [doc('---', 'name: x'), /no closing `---`/],
    [doc('---', 'name: x', 'name: y', '---'), /line 3: Map keys must be unique/],
    [doc('---', '- read', '---'), /line 2: the frontmatter must be `key: value` lines/],
    [doc('---', 'just text', '---'), /line 2: the frontmatter must be `key: value` lines/],
    [doc('---', 'description: "unterminated', '---'), /line 2: .*(quote|Missing closing)/i],
    [doc('---', 'tools:', '\tbash: false', '---'), /line 3: /],
    [doc('---', 'a: b: c', 'not a key value', '---'), /line 2: Nested mappings are not allowed/],
  ])('refuses %j with the line of the problem', (text, error) => {
    expect(() => parseFrontmatter(text)).toThrow(error)
  })
})
