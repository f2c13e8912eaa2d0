import { describe, expect, it } from 'vitest'
import { parseEnvelope } from '../../../src/main/core/tools/apply-patch/envelope'

function update(content: string, body: string[]): string {
  const [op] = parseEnvelope(['*** Begin Patch', '*** Update File: f.txt', ...body, '*** End Patch'].join('\n'))
  if (op?.type !== 'update') throw new Error('expected an update')
  return op.apply(content)
}

describe('apply_patch envelope semantics (as Codex applies them)', () => {
  const table: Array<[string, string, string[], string]> = [
    ['a chunk of only + lines appends at the end', 'a\nb\n', ['@@', '+c', '+d'], 'a\nb\nc\nd\n'],
    ['…also without @@', 'a\nb\n', ['+c'], 'a\nb\nc\n'],
    ['…also to a file without a final newline', 'a\nb', ['@@', '+c'], 'a\nb\nc'],
    ['…also to an empty file', '', ['@@', '+x'], 'x\n'],
    [
      'a pure addition before a removal still goes to the end (Codex test)',
      'line1\nline2\nline3\n',
      ['@@', '+after-context', '+second-line', '@@', ' line1', '-line2', '-line3', '+line2-replacement'],
      'line1\nline2-replacement\nafter-context\nsecond-line\n',
    ],
    ['an anchored addition goes after its anchor', 'class A {\n}\nclass B {\n}\n', ['@@ class B {', '+  x = 1'], 'class A {\n}\nclass B {\n  x = 1\n}\n'],
    ['untouched lines keep their line endings in mixed files', 'a\r\nb\nc\r\nd\r\n', ['@@', ' a', '-b', '+B', ' c'], 'a\r\nB\nc\r\nd\r\n'],
    // Codex's "preserves untouched mixed line endings": the replaced line keeps its own break.
    ['a replaced line keeps its own CRLF in a mostly-LF file (Codex test)', 'alpha\nbeta\r\ngamma\n', ['@@', ' alpha', '-beta', '+changed', ' gamma'], 'alpha\nchanged\r\ngamma\n'],
    ['a replaced line keeps its own LF in a mostly-CRLF file (Codex test)', 'alpha\r\nbeta\ngamma\r\n', ['@@', '-beta', '+changed'], 'alpha\r\nchanged\ngamma\r\n'],
    ['lines added beyond the replaced ones take the run\'s break', 'a\nb\r\nc\n', ['@@', '-b', '+B1', '+B2'], 'a\nB1\r\nB2\r\nc\n'],
    ['context lines keep their own break even when others differ', 'a\nb\r\nc\n', ['@@', ' a', ' b', '-c', '+C'], 'a\nb\r\nC\n'],
    ['added lines take the dominant break', 'a\r\nb\r\nc\n', ['@@', ' b', '+x'], 'a\r\nb\r\nx\r\nc\n'],
    ['a BOM stays when the first line is replaced', '\uFEFFfirst\nsecond\n', ['@@', '-first', '+FIRST'], '\uFEFFFIRST\nsecond\n'],
    ['an End of File chunk replaces the last lines', 'x\ny\nx\n', ['@@', '-x', '+z', '*** End of File'], 'x\ny\nz\n'],
  ]
  it.each(table)('%s', (_name, before, body, after) => {
    expect(update(before, body)).toBe(after)
  })

  it('still refuses a chunk whose lines are not in the file', () => {
    expect(() => update('a\n', ['@@', '-nope', '+x'])).toThrow(/does not match the file/)
  })
})
