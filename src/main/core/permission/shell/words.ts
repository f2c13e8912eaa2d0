import type { SyntaxNode } from './bash-parser'
import type { WordChar } from './expand'

/** A word after quote removal. */
export interface ShellWord {
  raw: string
  /** The text after quote removal; null when it holds an expansion only known at run time. */
  value: string | null
  /** Unquoted glob or brace characters: the word may become several words. */
  expands: boolean
  /** The characters with their quoting, for static expansion; null when `value` is null. */
  chars: WordChar[] | null
  /** A process substitution: a pipe to a command, not a file. */
  pipe?: boolean
  /** Spelled with `$'…'`: as a command name it is taken as computed. */
  ansiC?: boolean
  /** `find -exec`'s `{}`: a path found under the literal start points. */
  found?: boolean
}

/** What the word and arithmetic evaluators need from the walker. */
export interface WalkContext {
  /** Walks a statement found inside a word (`$(…)`, `` `…` ``, `<(…)`). */
  statement(node: SyntaxNode): void
  /** Records a construct the analysis does not understand: the line becomes an ask with no "always". */
  unsupported(reason: string): void
  /** A variable read in an arithmetic context (its value is evaluated as an expression there). */
  arithmeticVariable(name: string): void
  /** A variable given a value that is not a plain integer. */
  assignedText(name: string): void
  /**
   * The pattern of `${x#…}`, `${x%%…}`, `${x,,…}` and the like, which the grammar leaves
   * as plain text: bash expands `$(…)`, backticks and variables in it, so it is walked too.
   */
  expansionPattern(text: string): void
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/

export function isIdentifier(text: string): boolean {
  return IDENTIFIER.test(text)
}

function literal(text: string, quoted: boolean): WordChar[] {
  return [...text].map((c) => ({ c, q: quoted }))
}

function dynamicWord(node: SyntaxNode, extra: Partial<ShellWord> = {}): ShellWord {
  return { raw: node.text, value: null, expands: false, chars: null, ...extra }
}

function fromChars(node: SyntaxNode, chars: WordChar[] | null, extra: Partial<ShellWord> = {}): ShellWord {
  if (chars === null) return dynamicWord(node, extra)
  const expands = chars.some((ch) => !ch.q && '*?[{'.includes(ch.c))
  return { raw: node.text, value: chars.map((ch) => ch.c).join(''), expands, chars, ...extra }
}

/** An unquoted word: a backslash quotes the next character; backslash-newline disappears. */
function unquotedChars(text: string): WordChar[] {
  const out: WordChar[] = []
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string
    if (c !== '\\') {
      out.push({ c, q: false })
      continue
    }
    const next = text[i + 1]
    i++
    if (next === undefined || next === '\n') continue
    out.push({ c: next, q: true })
  }
  return out
}

/** The inside of double quotes: `\` escapes only `$`, `` ` ``, `"`, `\` and newline. */
function doubleQuotedChars(text: string): WordChar[] {
  let out = ''
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string
    const next = text[i + 1]
    if (c === '\\' && next !== undefined && '$`"\\\n'.includes(next)) {
      if (next !== '\n') out += next
      i++
      continue
    }
    out += c
  }
  return literal(out, true)
}

const ANSI_SIMPLE = new Map<string, string>([
  ['a', '\x07'], ['b', '\b'], ['e', '\x1b'], ['E', '\x1b'], ['f', '\f'], ['n', '\n'], ['r', '\r'], ['t', '\t'],
  ['v', '\v'], ['\\', '\\'], ["'", "'"], ['"', '"'], ['?', '?'],
])

/** Decodes the body of `$'…'` as bash does (octal, hex, Unicode and control escapes included). */
export function decodeAnsiC(body: string): string {
  let out = ''
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string
    if (c !== '\\' || i + 1 >= body.length) {
      out += c
      continue
    }
    const next = body[i + 1] as string
    const simple = ANSI_SIMPLE.get(next)
    if (simple !== undefined) {
      out += simple
      i++
      continue
    }
    const rest = body.slice(i + 1)
    const octal = /^[0-7]{1,3}/.exec(rest)
    const hex = /^x([0-9a-fA-F]{1,2})/.exec(rest)
    const unicode = /^u([0-9a-fA-F]{1,4})/.exec(rest) ?? /^U([0-9a-fA-F]{1,8})/.exec(rest)
    const control = /^c(.)/s.exec(rest)
    if (octal) {
      out += String.fromCharCode(parseInt(octal[0], 8) & 0xff)
      i += octal[0].length
    } else if (hex) {
      out += String.fromCharCode(parseInt(hex[1] as string, 16))
      i += hex[0].length
    } else if (unicode) {
      out += String.fromCodePoint(Math.min(parseInt(unicode[1] as string, 16), 0x10ffff))
      i += unicode[0].length
    } else if (control) {
      out += String.fromCharCode((control[1] as string).charCodeAt(0) & 0x1f)
      i += 2
    } else {
      out += `\\${next}`
      i++
    }
  }
  return out
}

function concat(parts: Array<WordChar[] | null>): WordChar[] | null {
  if (parts.some((p) => p === null)) return null
  return (parts as WordChar[][]).flat()
}

/** Node types that are words (arguments, assignment values, redirect targets). */
export const WORD_TYPES = new Set([
  'word', 'number', 'string', 'raw_string', 'ansi_c_string', 'translated_string', 'concatenation', 'simple_expansion',
  'expansion', 'command_substitution', 'process_substitution', 'arithmetic_expansion', 'brace_expression',
])

/**
 * Evaluates a word node: literal text is decoded (quotes, escapes, `$'…'`),
 * anything known only at run time makes the value null, and commands inside
 * substitutions are handed to the walker. Node types outside the list are
 * reported as unsupported.
 */
export function evaluateWord(node: SyntaxNode, ctx: WalkContext): ShellWord {
  const chars = wordChars(node, ctx)
  const extra: Partial<ShellWord> = {}
  if (node.type === 'process_substitution') extra.pipe = true
  if (node.type === 'ansi_c_string' || node.descendantsOfType('ansi_c_string').length > 0) extra.ansiC = true
  return fromChars(node, chars, extra)
}

function wordChars(node: SyntaxNode, ctx: WalkContext): WordChar[] | null {
  switch (node.type) {
    case 'word':
    case 'brace_expression':
      return unquotedChars(node.text)
    case 'number':
      return literal(node.text, false)
    case 'raw_string':
      return literal(node.text.slice(1, -1), true)
    case 'ansi_c_string':
      return literal(decodeAnsiC(node.text.slice(2, -1)), true)
    case 'string':
    case 'translated_string':
      return stringChars(node, ctx)
    case 'concatenation':
      return concat(node.namedChildren.map((child) => (child ? wordChars(child, ctx) : null)))
    case 'simple_expansion':
      checkSimpleExpansion(node, ctx)
      return null
    case 'expansion':
      checkExpansion(node, ctx)
      return null
    case 'command_substitution':
      for (const child of node.namedChildren) if (child) ctx.statement(child)
      return null
    case 'process_substitution':
      ctx.unsupported('process substitution')
      for (const child of node.namedChildren) if (child) ctx.statement(child)
      return null
    case 'arithmetic_expansion':
      for (const child of node.namedChildren) if (child) arithmetic(child, ctx)
      return null
    default:
      ctx.unsupported(`"${node.type}" in a word`)
      return null
  }
}

function stringChars(node: SyntaxNode, ctx: WalkContext): WordChar[] | null {
  const parts: Array<WordChar[] | null> = []
  for (const child of node.namedChildren) {
    if (!child) continue
    if (child.type === 'string_content') parts.push(doubleQuotedChars(child.text))
    else parts.push(wordChars(child, ctx))
  }
  const chars = concat(parts)
  // Inside quotes nothing expands: mark every character quoted.
  return chars === null ? null : chars.map((ch) => ({ c: ch.c, q: true }))
}

function checkSimpleExpansion(node: SyntaxNode, ctx: WalkContext): void {
  const child = node.namedChild(0)
  if (!child || (child.type !== 'variable_name' && child.type !== 'special_variable_name')) {
    ctx.unsupported(`"${node.text}"`)
  }
}

/** Operators of `${name…}` the analysis understands; transformations (`@P`…) and indirection (`!`) are not among them. */
const EXPANSION_OPERATORS = new Set([
  ':-', '-', ':=', '=', ':+', '+', ':?', '?', '#', '##', '%', '%%', '/', '//', '/#', '/%', '^', '^^', ',', ',,', ':',
])

function checkExpansion(node: SyntaxNode, ctx: WalkContext): void {
  const children = node.children.filter((c): c is SyntaxNode => c !== null)
  let name: string | undefined
  let operator: string | undefined
  let seenName = false
  for (const [index, child] of children.entries()) {
    if (index === 0 && child.type === '${') continue
    if (index === children.length - 1 && child.type === '}') continue
    if (!seenName) {
      if (child.type === '#' && !child.isNamed) continue // `${#name}`: the length
      if (child.type === 'variable_name' || child.type === 'special_variable_name') {
        name = child.text
        seenName = true
        continue
      }
      if (child.type === 'subscript') {
        subscript(child, ctx)
        seenName = true
        continue
      }
      ctx.unsupported(`the expansion "${node.text}"`)
      return
    }
    if (!child.isNamed) {
      if (operator === undefined && EXPANSION_OPERATORS.has(child.type)) {
        operator = child.type
        continue
      }
      if (operator === ':' && child.type === ':') continue
      if (operator?.startsWith('/') && child.type === '/') continue
      ctx.unsupported(`the expansion "${node.text}"`)
      return
    }
    if (operator === ':') {
      // `${x:offset:length}`: both are arithmetic.
      arithmetic(child, ctx)
      continue
    }
    if (child.type === 'regex') {
      if (/[$`]/.test(child.text)) ctx.expansionPattern(child.text)
      continue
    }
    if (WORD_TYPES.has(child.type)) {
      evaluateWord(child, ctx)
      continue
    }
    ctx.unsupported(`the expansion "${node.text}"`)
    return
  }
  if (!seenName) ctx.unsupported(`the expansion "${node.text}"`)
  if (name !== undefined && (operator === ':=' || operator === '=')) ctx.assignedText(name)
}

/** `name[index]`: the index of an indexed array is arithmetic, so it is checked as such. */
export function subscript(node: SyntaxNode, ctx: WalkContext): void {
  const index = node.namedChildren.filter((c): c is SyntaxNode => c !== null).slice(1)
  for (const child of index) {
    if (child.type === 'word' && (child.text === '@' || child.text === '*')) continue
    arithmetic(child, ctx)
  }
}

const ARITHMETIC_CONTAINERS = new Set([
  'binary_expression', 'unary_expression', 'postfix_expression', 'parenthesized_expression', 'ternary_expression',
])

/**
 * Arithmetic (`$((…))`, `((…))`, `for ((…))`, array indexes, `[[ -eq ]]` operands):
 * numbers, operators and plain variable names only. A variable's value is itself
 * evaluated as an expression there, so the walker later refuses names that the
 * line gives a non-numeric value; subscripts and substitutions are refused here.
 */
export function arithmetic(node: SyntaxNode, ctx: WalkContext): void {
  if (node.type === 'number') return
  if (node.type === 'variable_name' || (node.type === 'word' && isIdentifier(node.text))) {
    ctx.arithmeticVariable(node.text)
    return
  }
  if (node.type === 'simple_expansion') {
    const child = node.namedChild(0)
    if (child?.type === 'variable_name') {
      ctx.arithmeticVariable(child.text)
      return
    }
  }
  if (node.type === 'variable_assignment') {
    const [target, ...values] = node.namedChildren.filter((c): c is SyntaxNode => c !== null)
    if (target?.type === 'variable_name') ctx.arithmeticVariable(target.text)
    else ctx.unsupported(`arithmetic assignment "${node.text}"`)
    for (const value of values) arithmetic(value, ctx)
    return
  }
  if (ARITHMETIC_CONTAINERS.has(node.type)) {
    for (const child of node.namedChildren) if (child) arithmetic(child, ctx)
    return
  }
  ctx.unsupported(`arithmetic with "${node.text}"`)
}
