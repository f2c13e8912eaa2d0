import { createScanner, type Node, type ParseError, parseTree, printParseErrorCode } from 'jsonc-parser'
import { type ConfigFileRef, configInvalid, configSyntaxError, formatJsonPath } from './config-error'
import { setOwn } from './merge'

const SYNTAX_MESSAGES: Record<string, string> = {
  InvalidSymbol: 'invalid symbol',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'expected a property name in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: 'expected ":"',
  CommaExpected: 'expected ","',
  CloseBraceExpected: 'expected "}"',
  CloseBracketExpected: 'expected "]"',
  EndOfFileExpected: 'unexpected content after the end of the document',
  InvalidCommentToken: 'invalid comment',
  UnexpectedEndOfComment: 'unterminated comment',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'unterminated number',
  InvalidUnicode: 'invalid unicode escape',
  InvalidEscapeCharacter: 'invalid escape character',
  InvalidCharacter: 'invalid character',
}

/** 1-based line and column of a character offset, as editors show them. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1
  let lineStart = 0
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++
      lineStart = i + 1
    }
  }
  return { line, column: offset - lineStart + 1 }
}

/**
 * Parses JSON with comments and trailing commas. The parser recovers from errors and
 * would hand back a partial document; a partial config silently drops settings, so
 * any syntax error fails the whole file. A file holding nothing (or only comments)
 * is an empty config: people create the file before filling it in.
 *
 * The document is built from the syntax tree rather than with `parse`, which assigns
 * keys with `obj[key] =`: a `"__proto__"` key would replace the object's prototype and
 * smuggle inherited settings past validation (and later code copies objects the same
 * way), so that key is refused outright. Duplicate keys, which JSON resolves silently
 * to the last one, are reported as warnings.
 */
export function parseJsonc(text: string, file: ConfigFileRef, warnings: string[]): unknown {
  assertNesting(text, file)
  const errors: ParseError[] = []
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true })
  const first = errors[0]
  if (first) {
    const issues = errors.map((error) => {
      const at = lineColumn(text, error.offset)
      return { path: '', message: `syntax error at ${at.line}:${at.column}: ${describeSyntax(error)}` }
    })
    throw configSyntaxError(file, lineColumn(text, first.offset), describeSyntax(first), issues)
  }
  if (!root) return {}
  return toValue(root, [], { text, file, warnings })
}

// jsonc-parser's SyntaxKind is a const enum, which isolated modules cannot read: its values, as documented.
const SyntaxKind = { OpenBraceToken: 1, CloseBraceToken: 2, OpenBracketToken: 3, CloseBracketToken: 4, CommaToken: 5, StringLiteral: 10, EOF: 17 } as const

/** Deeper than any real config; the parser and validator recurse per level, so a hostile file would overflow the stack. */
export const MAX_CONFIG_NESTING = 64

/**
 * Refuses a document nested deeper than `MAX_CONFIG_NESTING` before it is parsed, naming the file, the JSON
 * path and the position where the limit is crossed. A token scan, not a recursive parse, so any depth is safe.
 */
function assertNesting(text: string, file: ConfigFileRef): void {
  const scanner = createScanner(text, true)
  const stack: { array: boolean; key: PropertyKey }[] = []
  let key: PropertyKey = ''
  for (let token = scanner.scan(); token !== SyntaxKind.EOF; token = scanner.scan()) {
    const top = stack.at(-1)
    if (token === SyntaxKind.OpenBraceToken || token === SyntaxKind.OpenBracketToken) {
      if (top) top.key = key
      if (stack.length >= MAX_CONFIG_NESTING) {
        const path = formatJsonPath(stack.map((f) => f.key))
        const at = lineColumn(text, scanner.getTokenOffset())
        throw configInvalid(file, [
          { path, message: `nested deeper than ${MAX_CONFIG_NESTING} levels (at ${at.line}:${at.column}); a config never needs that` },
        ])
      }
      stack.push({ array: token === SyntaxKind.OpenBracketToken, key: '' })
      key = token === SyntaxKind.OpenBracketToken ? 0 : ''
    } else if (token === SyntaxKind.CloseBraceToken || token === SyntaxKind.CloseBracketToken) {
      stack.pop()
      key = stack.at(-1)?.key ?? ''
    } else if (token === SyntaxKind.CommaToken && top?.array && typeof key === 'number') {
      key += 1
    } else if (token === SyntaxKind.StringLiteral && top && !top.array) {
      // In an object, a string before ":" is a key; the scanner does not say which, so the last one wins.
      const value = scanner.getTokenValue()
      let next = scanner.getPosition()
      while (next < text.length && /\s/.test(text.charAt(next))) next++
      if (text.charAt(next) === ':') key = value
    }
  }
}

function describeSyntax(error: ParseError): string {
  const code = printParseErrorCode(error.error)
  return SYNTAX_MESSAGES[code] ?? code
}

interface TreeContext {
  text: string
  file: ConfigFileRef
  warnings: string[]
}

function toValue(node: Node, path: PropertyKey[], ctx: TreeContext): unknown {
  if (node.type === 'object') {
    const out: Record<string, unknown> = {}
    for (const property of node.children ?? []) {
      const [keyNode, valueNode] = property.children ?? []
      if (!keyNode || !valueNode) continue // cannot happen without a syntax error, which was thrown above
      const key = String(keyNode.value)
      if (key === '__proto__') {
        throw configInvalid(ctx.file, [{ path: formatJsonPath([...path, key]), message: 'reserved key "__proto__" is not allowed' }])
      }
      if (Object.hasOwn(out, key)) {
        const at = lineColumn(ctx.text, keyNode.offset)
        ctx.warnings.push(
          `${ctx.file.display}:${at.line}:${at.column}: ${formatJsonPath([...path, key])}: duplicate key; the last one is used`,
        )
      }
      setOwn(out, key, toValue(valueNode, [...path, key], ctx))
    }
    return out
  }
  if (node.type === 'array') return (node.children ?? []).map((child, i) => toValue(child, [...path, i], ctx))
  const value: unknown = node.value
  return value
}
