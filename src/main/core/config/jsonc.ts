import { type Node, type ParseError, parseTree, printParseErrorCode } from 'jsonc-parser'
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
