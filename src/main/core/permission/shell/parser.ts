/**
 * Extracts every simple command a bash command line would run. The grammar is first
 * checked by a real bash parser (see `analyze.ts`); this walker then finds commands
 * everywhere they can hide: lists and pipelines, subshells and groups, compound
 * commands, `$(…)`, backticks, process substitution, `${…}` defaults, heredoc bodies
 * and array assignments. Anything it does not understand throws `ShellSyntaxError`,
 * which callers treat as "cannot be analyzed": ask, fail closed.
 */

export class ShellSyntaxError extends Error {
  override readonly name = 'ShellSyntaxError'
}

/** A word after quote removal. `value` is null when it holds an expansion whose result is only known at run time. */
export interface ShellWord {
  raw: string
  value: string | null
  /** Unquoted glob or brace-expansion characters: the word may become several words. */
  expands: boolean
}

export interface ShellRedirect {
  op: string
  /** The target word; absent for fd duplication (`2>&1`) and heredocs. */
  target?: ShellWord
}

export interface SimpleCommand {
  assignments: ShellWord[]
  words: ShellWord[]
  redirects: ShellRedirect[]
  /** The command's source text. */
  source: string
}

const META = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>'])
const SEPARATORS = ['&&', '||', ';;&', ';;', ';&', '|&', ';', '&', '|']
/** Words that open or continue a compound command; a command follows them. */
const LEADING_KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'while', 'until', 'do', '{', '!', 'time'])
/** Words that close a compound command. */
const CLOSING_KEYWORDS = new Set(['fi', 'done', '}', 'esac'])
const REDIRECT_OPS = ['&>>', '<<<', '<<-', '<<', '>>', '&>', '>&', '<&', '<>', '>|', '<', '>']
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/
const MAX_DEPTH = 16

interface Heredoc {
  delimiter: string
  stripTabs: boolean
  expands: boolean
}

export class ShellCommandParser {
  private pos = 0
  private readonly heredocs: Heredoc[] = []

  constructor(
    private readonly src: string,
    private readonly out: SimpleCommand[],
    private readonly depth = 0,
  ) {
    if (depth > MAX_DEPTH) throw new ShellSyntaxError('nested too deeply')
  }

  /** Parses a whole script; every simple command is appended to the output list. */
  static parse(src: string): SimpleCommand[] {
    const out: SimpleCommand[] = []
    const parser = new ShellCommandParser(src, out)
    parser.parseList(undefined)
    parser.assertComplete()
    return out
  }

  private peek(offset = 0): string {
    return this.src[this.pos + offset] ?? ''
  }

  private startsWith(text: string): boolean {
    return this.src.startsWith(text, this.pos)
  }

  private atEnd(): boolean {
    return this.pos >= this.src.length
  }

  private fail(message: string): never {
    throw new ShellSyntaxError(`${message} at offset ${this.pos}`)
  }

  private skipBlanks(): void {
    for (;;) {
      const ch = this.peek()
      if (ch === ' ' || ch === '\t') this.pos++
      else if (ch === '\\' && this.peek(1) === '\n') this.pos += 2
      else if (ch === '#') {
        while (!this.atEnd() && this.peek() !== '\n') this.pos++
      } else return
    }
  }

  private consumeNewline(): void {
    this.pos++
    this.readHeredocBodies()
  }

  /** Skips separators between commands; returns false when the list ends (EOF or `close`). */
  private skipSeparators(close: string | undefined): boolean {
    for (;;) {
      this.skipBlanks()
      if (this.atEnd()) {
        if (close) this.fail(`missing "${close}"`)
        return false
      }
      if (close && this.startsWith(close)) {
        this.pos += close.length
        return false
      }
      if (this.peek() === '\n') {
        this.consumeNewline()
        continue
      }
      const sep = SEPARATORS.find((s) => this.startsWith(s))
      if (sep) {
        this.pos += sep.length
        continue
      }
      return true
    }
  }

  /** A command list up to EOF or the closing text (`)` for subshells and `$(…)`). */
  parseList(close: string | undefined): void {
    while (this.skipSeparators(close)) this.parseCommand(close)
  }

  private parseCommand(close: string | undefined): void {
    if (this.peek() === '(') {
      if (this.peek(1) === '(') {
        this.pos += 2
        this.skipArithmetic()
        return
      }
      this.pos++
      this.parseList(')')
      return
    }
    const start = this.pos
    const first = this.peekKeyword()
    if (first !== undefined) {
      if (LEADING_KEYWORDS.has(first) || CLOSING_KEYWORDS.has(first)) {
        this.pos += first.length
        // `time -p cmd`: the option belongs to the keyword, not to a command.
        if (first === 'time' && /^\s+-p\b/.test(this.src.slice(this.pos))) this.pos = this.src.indexOf('-p', this.pos) + 2
        return
      }
      if (first === 'for' || first === 'select') return this.parseFor(first)
      if (first === 'case') return this.parseCase()
      if (first === 'function') {
        this.pos += first.length
        this.skipBlanks()
        this.readWord()
        this.skipBlanks()
        if (this.startsWith('()')) this.pos += 2
        return
      }
      if (first === '[[') return this.parseTest()
      if (first === 'coproc') this.fail('coproc is not supported')
    }
    this.parseSimple(start, close)
  }

  /** A reserved word at the current position, when it stands alone as a word. */
  private peekKeyword(): string | undefined {
    const match = /^(\[\[|[a-z!{}]+)/.exec(this.src.slice(this.pos, this.pos + 10))
    if (!match?.[1]) return undefined
    const word = match[1]
    const after = this.src[this.pos + word.length] ?? ''
    if (after !== '' && !META.has(after)) return undefined
    const keywords = ['if', 'then', 'else', 'elif', 'fi', 'while', 'until', 'do', 'done', 'for', 'select', 'case',
      'esac', 'function', '{', '}', '!', 'time', 'coproc', '[[', 'in']
    return keywords.includes(word) && word !== 'in' ? word : undefined
  }

  private parseSimple(start: number, close: string | undefined): void {
    const command: SimpleCommand = { assignments: [], words: [], redirects: [], source: '' }
    for (;;) {
      this.skipBlanks()
      if (this.atEnd()) break
      const ch = this.peek()
      if (ch === '\n' || ch === ';' || (ch === '&' && !this.startsWith('&>')) || ch === '|') break
      if (close && this.startsWith(close)) break
      if (ch === ')') this.fail('unexpected ")"')
      if (ch === '(') {
        // `name() { …; }`: a function definition; its body is parsed as the commands that follow.
        if (command.words.length === 1 && this.src.slice(this.pos).match(/^\(\s*\)/)) {
          this.pos = this.src.indexOf(')', this.pos) + 1
          command.source = this.src.slice(start, this.pos)
          return
        }
        this.fail('unexpected "("')
      }
      const redirect = this.tryRedirect()
      if (redirect) {
        command.redirects.push(redirect)
        continue
      }
      if ((ch === '<' || ch === '>') && this.peek(1) === '(') {
        const subStart = this.pos
        this.pos += 2
        this.nested(')')
        command.words.push({ raw: this.src.slice(subStart, this.pos), value: null, expands: false })
        continue
      }
      const wordStart = this.pos
      const inPrefix = command.words.length === 0
      const word = this.readWord(inPrefix)
      if (!word) this.fail(`unexpected "${this.peek()}"`)
      if (inPrefix && ASSIGNMENT.test(this.src.slice(wordStart, this.pos))) command.assignments.push(word)
      else command.words.push(word)
    }
    command.source = this.src.slice(start, this.pos).trim()
    if (command.words.length > 0 || command.assignments.length > 0 || command.redirects.length > 0) {
      this.out.push(command)
    }
  }

  private tryRedirect(): ShellRedirect | undefined {
    const save = this.pos
    let fd = ''
    while (/[0-9]/.test(this.peek())) fd += this.src[this.pos++]
    if (this.peek() === '{') {
      // `{varname}>file` allocates a descriptor; rare and computed: refuse.
      const m = /^\{[A-Za-z_][A-Za-z0-9_]*\}[<>]/.exec(this.src.slice(this.pos))
      if (m) this.fail('named file descriptors are not supported')
    }
    const op = REDIRECT_OPS.find((o) => this.startsWith(o))
    if (!op || ((op === '<' || op === '>') && this.peek(1) === '(' && fd === '')) {
      this.pos = save
      return undefined
    }
    this.pos += op.length
    this.skipBlanks()
    if (op === '<<' || op === '<<-') {
      const delimStart = this.pos
      const word = this.readWord()
      if (!word || word.value === null) this.fail('heredoc delimiter must be a plain word')
      const raw = this.src.slice(delimStart, this.pos)
      this.heredocs.push({ delimiter: word.value, stripTabs: op === '<<-', expands: !/['"\\]/.test(raw) })
      return { op }
    }
    const target = this.readWord()
    if (!target) this.fail(`missing target after "${op}"`)
    // `>&2`, `2>&1`, `<&-`: descriptor duplication or closing, not a path.
    if ((op === '>&' || op === '<&') && target.value !== null && /^([0-9]+-?|-)$/.test(target.value)) return { op }
    return { op: fd + op, target }
  }

  /** Runs a nested parser over `$(…)`, `<(…)` or a backtick body and adopts its position. */
  private nested(close: string): void {
    const sub = new ShellCommandParser(this.src, this.out, this.depth + 1)
    sub.pos = this.pos
    sub.parseList(close)
    if (sub.heredocs.length > 0) this.fail('unterminated heredoc')
    this.pos = sub.pos
  }

  private parseSubstitutionText(text: string): void {
    const sub = new ShellCommandParser(text, this.out, this.depth + 1)
    sub.parseList(undefined)
    if (sub.heredocs.length > 0) sub.fail('unterminated heredoc')
  }

  /** Reads one word at the current position; undefined when a metacharacter stands there. */
  private readWord(allowArray = false): ShellWord | undefined {
    const start = this.pos
    let value = ''
    let dynamic = false
    let expands = false
    while (!this.atEnd()) {
      const ch = this.peek()
      if (META.has(ch)) {
        if (ch === '(' && allowArray && this.src.slice(start, this.pos).endsWith('=')) {
          this.pos++
          this.readArrayElements()
          dynamic = true
          continue
        }
        break
      }
      if (ch === '\\') {
        const next = this.peek(1)
        this.pos += 2
        if (next !== '\n') value += next
      } else if (ch === "'") {
        const end = this.src.indexOf("'", this.pos + 1)
        if (end < 0) this.fail('unterminated single quote')
        value += this.src.slice(this.pos + 1, end)
        this.pos = end + 1
      } else if (ch === '"') {
        this.pos++
        const part = this.readDoubleQuoted()
        if (part === null) dynamic = true
        else value += part
      } else if (ch === '$') {
        const literal = this.readDollar()
        if (literal === null) dynamic = true
        else value += literal
      } else if (ch === '`') {
        this.readBacktick()
        dynamic = true
      } else {
        if (ch === '*' || ch === '?' || ch === '[') expands = true
        if (ch === '{' && /^\{[^{}\s]*(,|\.\.)[^{}\s]*\}/.test(this.src.slice(this.pos))) expands = true
        if ((ch === '@' || ch === '+' || ch === '!') && this.peek(1) === '(') this.fail('extended globs are not supported')
        value += ch
        this.pos++
      }
    }
    if (this.pos === start) return undefined
    return { raw: this.src.slice(start, this.pos), value: dynamic ? null : value, expands }
  }

  private readArrayElements(): void {
    for (;;) {
      this.skipBlanks()
      if (this.peek() === '\n') {
        this.consumeNewline()
        continue
      }
      if (this.atEnd()) this.fail('unterminated array')
      if (this.peek() === ')') {
        this.pos++
        return
      }
      if (!this.readWord()) this.fail('unexpected character in array')
    }
  }

  /** After the opening quote; returns the literal value, or null when it holds expansions. */
  private readDoubleQuoted(): string | null {
    let value = ''
    let dynamic = false
    for (;;) {
      if (this.atEnd()) this.fail('unterminated double quote')
      const ch = this.peek()
      if (ch === '"') {
        this.pos++
        return dynamic ? null : value
      }
      if (ch === '\\') {
        const next = this.peek(1)
        if (next === '\n') this.pos += 2
        else if ('$`"\\'.includes(next)) {
          value += next
          this.pos += 2
        } else {
          value += ch
          this.pos++
        }
      } else if (ch === '$') {
        const literal = this.readDollar()
        if (literal === null) dynamic = true
        else value += literal
      } else if (ch === '`') {
        this.readBacktick()
        dynamic = true
      } else {
        value += ch
        this.pos++
      }
    }
  }

  /** At a `$`; returns the literal text for a lone `$`, null for any expansion. */
  private readDollar(): string | null {
    const next = this.peek(1)
    if (this.startsWith('$((')) {
      this.pos += 3
      this.skipArithmetic()
      return null
    }
    if (next === '(') {
      this.pos += 2
      this.nested(')')
      return null
    }
    if (next === '{') {
      this.pos += 2
      const bodyStart = this.pos
      this.skipBalanced('{', '}')
      const body = this.src.slice(bodyStart, this.pos - 1)
      if (/[`$]/.test(body)) this.scanExpansions(body)
      return null
    }
    if (next === "'") {
      this.pos += 2
      return this.readAnsiC()
    }
    if (next === '"') {
      this.pos += 2
      return this.readDoubleQuoted()
    }
    if (/[A-Za-z_]/.test(next)) {
      this.pos += 2
      while (/[A-Za-z0-9_]/.test(this.peek())) this.pos++
      return null
    }
    if (/[0-9@*#?$!-]/.test(next) && next !== '') {
      this.pos += 2
      return null
    }
    this.pos++
    return '$'
  }

  /** `$'…'` with the common escapes decoded; numeric escapes make the word dynamic (they can spell anything). */
  private readAnsiC(): string | null {
    let value = ''
    let dynamic = false
    for (;;) {
      if (this.atEnd()) this.fail("unterminated $'")
      const ch = this.peek()
      if (ch === "'") {
        this.pos++
        return dynamic ? null : value
      }
      if (ch === '\\') {
        const next = this.peek(1)
        const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', a: '\x07', e: '\x1b' }
        const mapped = simple[next]
        if (mapped !== undefined) value += mapped
        else dynamic = true
        this.pos += 2
        continue
      }
      value += ch
      this.pos++
    }
  }

  private readBacktick(): void {
    this.pos++
    let body = ''
    for (;;) {
      if (this.atEnd()) this.fail('unterminated backtick')
      const ch = this.peek()
      if (ch === '`') {
        this.pos++
        break
      }
      if (ch === '\\' && '`\\$'.includes(this.peek(1))) {
        body += this.peek(1)
        this.pos += 2
        continue
      }
      body += ch
      this.pos++
    }
    this.parseSubstitutionText(body)
  }

  /** Finds substitutions in text that behaves like the inside of double quotes (heredoc bodies, `${…}`). */
  private scanExpansions(text: string): void {
    const sub = new ShellCommandParser(text, this.out, this.depth + 1)
    while (!sub.atEnd()) {
      const ch = sub.peek()
      if (ch === '\\') sub.pos += 2
      else if (ch === '$') sub.readDollar()
      else if (ch === '`') sub.readBacktick()
      else sub.pos++
    }
  }

  /** Skips to the `}` matching an already consumed `{`, respecting quotes. */
  private skipBalanced(open: string, close: string): void {
    let level = 1
    while (level > 0) {
      if (this.atEnd()) this.fail(`missing "${close}"`)
      const ch = this.peek()
      if (ch === '\\') {
        this.pos += 2
        continue
      }
      if (ch === "'") {
        const end = this.src.indexOf("'", this.pos + 1)
        if (end < 0) this.fail('unterminated single quote')
        this.pos = end + 1
        continue
      }
      if (ch === open) level++
      else if (ch === close) level--
      this.pos++
    }
  }

  /** After `((` or `$((`: arithmetic. Substitutions inside it are refused rather than half-understood. */
  private skipArithmetic(): void {
    const bodyStart = this.pos
    let level = 0
    for (;;) {
      if (this.atEnd()) this.fail('unterminated arithmetic')
      if (level === 0 && this.startsWith('))')) break
      const ch = this.peek()
      if (ch === '(') level++
      else if (ch === ')') level--
      this.pos++
    }
    const body = this.src.slice(bodyStart, this.pos)
    this.pos += 2
    if (/[`]|\$\(/.test(body)) this.fail('command substitution inside arithmetic is not supported')
  }

  private parseFor(keyword: string): void {
    this.pos += keyword.length
    this.skipBlanks()
    if (this.startsWith('((')) {
      this.pos += 2
      this.skipArithmetic()
      return
    }
    if (!this.readWord()) this.fail(`missing variable after "${keyword}"`)
    this.skipBlanks()
    if (this.startsWith('in') && (META.has(this.peek(2)) || this.peek(2) === '')) {
      this.pos += 2
      for (;;) {
        this.skipBlanks()
        const ch = this.peek()
        if (ch === '' || ch === '\n' || ch === ';') return
        if (!this.readWord()) this.fail(`unexpected "${ch}" in ${keyword} list`)
      }
    }
  }

  private parseCase(): void {
    this.pos += 4
    this.skipBlanks()
    if (!this.readWord()) this.fail('missing word after "case"')
    this.skipBlanksAndNewlines()
    if (!this.startsWith('in')) this.fail('missing "in" after case word')
    this.pos += 2
    for (;;) {
      this.skipBlanksAndNewlines()
      if (this.atEnd()) this.fail('missing "esac"')
      if (this.peekKeyword() === 'esac') {
        this.pos += 4
        return
      }
      // Pattern list: `(`? word (| word)* `)`
      if (this.peek() === '(') this.pos++
      for (;;) {
        this.skipBlanks()
        if (!this.readWord()) this.fail('missing case pattern')
        this.skipBlanks()
        if (this.peek() === '|') {
          this.pos++
          continue
        }
        if (this.peek() !== ')') this.fail('missing ")" after case pattern')
        this.pos++
        break
      }
      // Commands until `;;`, `;&`, `;;&` or `esac`.
      for (;;) {
        this.skipBlanksAndNewlines()
        if (this.atEnd()) this.fail('missing "esac"')
        const terminator = [';;&', ';;', ';&'].find((t) => this.startsWith(t))
        if (terminator) {
          this.pos += terminator.length
          break
        }
        if (this.peekKeyword() === 'esac') break
        const sep = SEPARATORS.find((s) => this.startsWith(s))
        if (sep) {
          this.pos += sep.length
          continue
        }
        this.parseCommand(undefined)
      }
    }
  }

  private parseTest(): void {
    this.pos += 2
    for (;;) {
      this.skipBlanks()
      if (this.atEnd()) this.fail('missing "]]"')
      if (this.startsWith(']]')) {
        this.pos += 2
        return
      }
      const ch = this.peek()
      if (ch === '\n') {
        this.consumeNewline()
        continue
      }
      if ('()<>|&!'.includes(ch)) {
        this.pos++
        continue
      }
      if (!this.readWord()) this.fail(`unexpected "${ch}" in [[ ]]`)
    }
  }

  private skipBlanksAndNewlines(): void {
    for (;;) {
      this.skipBlanks()
      if (this.peek() !== '\n') return
      this.consumeNewline()
    }
  }

  private readHeredocBodies(): void {
    for (const doc of this.heredocs.splice(0)) {
      const bodyStart = this.pos
      for (;;) {
        if (this.atEnd()) this.fail(`heredoc "${doc.delimiter}" is not terminated`)
        const lineEnd = this.src.indexOf('\n', this.pos)
        const end = lineEnd < 0 ? this.src.length : lineEnd
        const line = this.src.slice(this.pos, end)
        const bare = doc.stripTabs ? line.replace(/^\t+/, '') : line
        if (bare === doc.delimiter) {
          const body = this.src.slice(bodyStart, this.pos)
          this.pos = lineEnd < 0 ? end : end + 1
          if (doc.expands) this.scanExpansions(body)
          break
        }
        this.pos = lineEnd < 0 ? end : end + 1
      }
    }
  }

  /** Pending heredocs at the end of input are an error (bash warns and takes the rest as body). */
  assertComplete(): void {
    if (this.heredocs.length > 0) this.fail('unterminated heredoc')
  }
}
