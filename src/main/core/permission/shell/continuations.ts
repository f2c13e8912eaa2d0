import type { BashParser, SyntaxNode } from './bash-parser'

/**
 * Bash removes a backslash-newline before it splits words, so `-de\⏎lete` is
 * `-delete` and `git diff\⏎tool` is `git difftool`; tree-sitter-bash reads it as a
 * line continuation between words. The text is therefore joined as bash joins it
 * before it is parsed for the check. Bash keeps a backslash-newline inside single
 * quotes, `$'…'`, comments and the body of a here-document with a quoted delimiter;
 * everywhere else (unquoted words, double quotes, `$(…)`, `${…}`, unquoted
 * here-document bodies) it disappears.
 */
const KEPT = new Set(['raw_string', 'ansi_c_string', 'comment'])

/** Offsets of backslashes that start a line continuation (an odd run of backslashes before a newline). */
function continuations(text: string): number[] {
  const out: number[] = []
  let at = text.indexOf('\\\n')
  while (at >= 0) {
    let run = 0
    for (let i = at; i >= 0 && text[i] === '\\'; i--) run++
    if (run % 2 === 1) out.push(at)
    at = text.indexOf('\\\n', at + 2)
  }
  return out
}

/** True when bash keeps the backslash-newline at `offset` as written. */
function kept(root: SyntaxNode, offset: number): boolean {
  for (let node = root.descendantForIndex(offset, offset + 1); node; node = node.parent) {
    if (KEPT.has(node.type)) return true
    if (node.type === 'heredoc_body') {
      const start = node.parent?.namedChildren.find((c) => c?.type === 'heredoc_start')
      return start !== undefined && start !== null && /['"\\]/.test(start.text)
    }
  }
  return false
}

/**
 * The text bash will actually parse, or null when where it keeps a backslash-newline
 * is not clear: after joining, every one left must still sit where bash keeps it.
 */
export function joinContinuations(parser: BashParser, text: string): string | null {
  const found = continuations(text)
  if (found.length === 0) return text
  const remove = parser.parse(text, (root) => found.filter((offset) => !kept(root, offset)))
  if (remove.length === 0) return text
  let joined = ''
  let from = 0
  for (const offset of remove) {
    joined += text.slice(from, offset)
    from = offset + 2
  }
  joined += text.slice(from)
  const left = continuations(joined)
  if (left.length === 0) return joined
  const stable = parser.parse(joined, (root) => left.every((offset) => kept(root, offset)))
  return stable ? joined : null
}
