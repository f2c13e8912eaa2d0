import { lstatSync } from 'node:fs'
import { alwaysPattern } from './arity'
import { loadBashParser, type BashParser, type SyntaxNode } from './bash-parser'
import { expandBraces, expandGlob, expandTilde, hasGlob, under, type WordChar } from './expand'
import { joinContinuations } from './continuations'
import { NO_FILE_ARGUMENTS, optionFileReads, readOperands } from './readers'
import { checkBuiltin, UNSUPPORTED_COMMANDS } from './builtins'
import { isRiskyVariable, unwrapCommand, type EmittedCommand } from './wrappers'
import { hasReadOnlyEntry, readsFileListAtRunTime, readsOnly, takesComputedArguments } from './validators'
import { recursiveRead, walkRecursive } from './recursive'
import { arithmetic, evaluateWord, isIdentifier, subscript, WORD_TYPES, type ShellWord, type WalkContext } from './words'

/** One command the line would run, as checked against `bash` rules. */
export interface AnalyzedCommand {
  /** Literal words after quote removal; a computed word appears as written. */
  argv: string[]
  /** `argv` joined by spaces: the pattern matched against `bash` rules. */
  text: string
  /** The "always" pattern offered for it; absent when none is safe. */
  always?: string
  /** The command name is only known at run time (`$CMD x`, `"$(which x)"`, `{a,b}`). */
  computed: boolean
  /** For `cd`/`pushd`: where it goes (a `cd` inside the project needs no `bash` ask). */
  cdTargets?: AnalyzedPath[]
  /**
   * Only reads and prints, by the table of read-only commands (`validators.ts`): a known
   * program, every option known safe, words as bash will pass them (globs and braces
   * expanded), no environment assignment that redirects it, no arguments added at run time.
   */
  readOnly: boolean
}

export type PathAccess = 'read' | 'write' | 'argument'

/** A path the line touches: redirect targets, path-like arguments and the files known readers read. */
export interface AnalyzedPath {
  /** As written (quotes removed); null when computed. */
  path: string | null
  raw: string
  access: PathAccess
  /**
   * Directories the path may be relative to: the working directory and any literal
   * `cd` targets seen before it; null when a computed `cd` makes it unknown.
   */
  cwds: string[] | null
  /**
   * Absolute paths it names after the static expansions (braces, `~`, `~+`, `~user`,
   * globs against the real tree), `..` not folded; null when not known statically.
   */
  expanded: string[] | null
  /** A path `find` found under its literal start points: unknown, but inside those trees. */
  found?: boolean
  /** A file a recursive reader (`grep -r`, `rg`) reaches in a folder it walks; `expanded` is its real path. */
  recursive?: boolean
}

export type ShellAnalysis =
  | { ok: true; commands: AnalyzedCommand[]; paths: AnalyzedPath[] }
  | {
      ok: false
      reason: string
      /** What could still be seen; checked too, so a deny rule still denies. */
      commands: AnalyzedCommand[]
      paths: AnalyzedPath[]
    }

const MAX_NESTING = 8
const MAX_SCRIPT_CHARS = 64 * 1024
const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i
const NAMED_FD_BEFORE = /\{[A-Za-z_][A-Za-z0-9_]*\}$/

const CONTAINERS = new Set([
  'program', 'list', 'pipeline', 'subshell', 'do_group', 'if_statement', 'elif_clause', 'else_clause',
  'while_statement', 'negated_command', 'case_statement', 'case_item',
])
const REDIRECTS = new Set(['file_redirect', 'heredoc_redirect', 'herestring_redirect'])
const ARITHMETIC_TESTS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge'])

/**
 * Analyzes a bash command line with tree-sitter-bash. The walk knows an explicit
 * list of node types; anything else (and every construct whose effect it cannot
 * see: arithmetic on text, `${x@P}`, process substitution, `coproc`, `{fd}`
 * redirections, `source`…) makes the result `ok: false`, which callers turn into
 * an ask without "always" that no allow rule can answer. Fail closed.
 */
export async function analyzeShell(command: string, cwd: string, options: { parse?: 'always' } = {}): Promise<ShellAnalysis> {
  const words = options.parse === 'always' ? undefined : plainWords(command)
  if (words) {
    const walker = new ShellWalker(undefined, cwd)
    try {
      walker.plainCommand(words)
      return outcome(walker)
    } catch (error) {
      // It runs a script of its own (`sh -c x`): the whole line is analyzed with the grammar.
      if (!(error instanceof NeedsGrammar)) throw error
    }
  }
  const walker = new ShellWalker(await loadBashParser(), cwd)
  walker.script(command, 0)
  return outcome(walker)
}

function outcome(walker: ShellWalker): ShellAnalysis {
  walker.finish()
  const { commands, paths, problems } = walker
  if (problems.length > 0) return { ok: false, reason: [...new Set(problems)].join('; '), commands, paths }
  return { ok: true, commands, paths }
}

/**
 * Characters bash gives no meaning to inside a word: no quoting, expansion, glob, brace, tilde, comment,
 * operator or redirection can be spelled with them.
 */
const PLAIN_LINE = /^[ \t]*[A-Za-z0-9_./:@%+,=-]+(?:[ \t]+[A-Za-z0-9_./:@%+,=-]+)*[ \t]*$/

/** First words bash (or the grammar) reads as more than a command name: reserved words and declarations. */
const NOT_A_COMMAND_NAME = new Set([
  'if', 'then', 'else', 'elif', 'fi', 'case', 'esac', 'for', 'select', 'while', 'until', 'do', 'done', 'in', 'function',
  'time', 'coproc', 'declare', 'typeset', 'export', 'local', 'readonly', 'unset',
])

/**
 * The words of a line that is one simple command of plain words (`ls -la src`, `npm test`, `git status`): bash
 * splits it at blanks and passes every word as written, so no grammar is needed to read it. Undefined for
 * anything else, an assignment in front included (`A=1 cmd`).
 */
function plainWords(line: string): ShellWord[] | undefined {
  if (line.length > MAX_SCRIPT_CHARS || !PLAIN_LINE.test(line)) return undefined
  const words = line.trim().split(/[ \t]+/)
  const first = words[0] as string
  if (first.includes('=') || NOT_A_COMMAND_NAME.has(first)) return undefined
  return words.map((word) => ({ raw: word, value: word, expands: false, chars: [...word].map((c) => ({ c, q: false })) }))
}

/** A plain line turned out to need the grammar after all. */
class NeedsGrammar extends Error {}

function firstError(root: SyntaxNode): string {
  const bad = root.descendantsOfType('ERROR')[0]
  if (bad) return `unexpected "${bad.text.slice(0, 40)}" at offset ${bad.startIndex}`
  const missing: SyntaxNode[] = []
  const visit = (node: SyntaxNode): void => {
    if (node.isMissing) missing.push(node)
    for (const child of node.children) if (child && missing.length === 0) visit(child)
  }
  visit(root)
  const first = missing[0]
  return first ? `missing "${first.type}" at offset ${first.startIndex}` : 'syntax error'
}

function named(node: SyntaxNode): SyntaxNode[] {
  return node.namedChildren.filter((c): c is SyntaxNode => c !== null)
}

function display(word: ShellWord): string {
  return word.value ?? word.raw
}

/** True for an argument that names a file system location (not an option, URL or plain word). */
function looksLikePath(value: string): boolean {
  if (value === '' || URL_LIKE.test(value)) return false
  return value.startsWith('/') || value.startsWith('~') || value === '.' || value === '..' || value.startsWith('./') ||
    value.startsWith('../') || value.includes('/')
}

function exists(abs: string): boolean {
  try {
    lstatSync(abs)
    return true
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ENAMETOOLONG' || code === 'EACCES') return false
    throw error
  }
}

class ShellWalker implements WalkContext {
  readonly commands: AnalyzedCommand[] = []
  readonly paths: AnalyzedPath[] = []
  readonly problems: string[] = []
  private cwds: string[] | null
  private depth = 0
  private source = ''
  private readonly arithmeticVariables = new Set<string>()
  private readonly textVariables = new Set<string>()
  private untrackedAssignment = false

  /** The folder the line starts in. */
  private readonly home: string

  constructor(
    private readonly grammar: BashParser | undefined,
    cwd: string,
  ) {
    this.cwds = [cwd]
    this.home = cwd
  }

  /** The grammar; a walk of plain words that reaches a script stops here (see `analyzeShell`). */
  private get parser(): BashParser {
    if (!this.grammar) throw new NeedsGrammar('a script inside the command')
    return this.grammar
  }

  unsupported(reason: string): void {
    this.problems.push(reason)
  }

  arithmeticVariable(name: string): void {
    this.arithmeticVariables.add(name)
  }

  assignedText(name: string): void {
    this.textVariables.add(name)
  }

  /** A builtin assigned variables the walk does not follow (`read`, `mapfile`, `printf -v`…). */
  assignedUntracked(): void {
    this.untrackedAssignment = true
  }

  /** Arithmetic on a variable this line sets to text evaluates that text: `x='a[$(cmd)]'; ((x))`. */
  finish(): void {
    for (const name of this.arithmeticVariables) {
      if (this.textVariables.has(name) || this.untrackedAssignment) {
        this.unsupported(`arithmetic on "${name}", which this line may set to text`)
      }
    }
  }

  script(text: string, depth: number): void {
    if (depth > MAX_NESTING) return this.unsupported('shell bodies nested too deeply')
    if (text.includes('\0')) return this.unsupported('a NUL byte in the command')
    if (text.length > MAX_SCRIPT_CHARS) return this.unsupported('a command too long to check')
    const joined = joinContinuations(this.parser, text)
    if (joined === null) return this.unsupported('a backslash-newline whose meaning is unclear')
    const outer = { depth: this.depth, source: this.source }
    this.depth = depth
    this.source = joined
    this.parser.parse(joined, (root) => {
      if (root.hasError) this.unsupported(`not valid bash: ${firstError(root)}`)
      this.statement(root)
    })
    this.depth = outer.depth
    this.source = outer.source
  }

  statement(node: SyntaxNode): void {
    const type = node.type
    if (type === 'comment') return
    if (CONTAINERS.has(type)) return this.container(node)
    switch (type) {
      case 'compound_statement':
        if (node.child(0)?.type === '((') return named(node).forEach((child) => arithmetic(child, this))
        return this.container(node)
      case 'redirected_statement': {
        const redirects = named(node).filter((c) => REDIRECTS.has(c.type))
        // The grammar files words after a redirect target under the redirect (`git 2>/dev/null push`): they are arguments.
        const extra = redirects.flatMap(extraWords)
        for (const child of named(node)) {
          if (REDIRECTS.has(child.type)) continue
          if (child.type === 'command') this.command(child, extra)
          else {
            if (extra.length > 0) this.unsupported(`words after a redirect of "${child.type}"`)
            this.statement(child)
          }
        }
        redirects.forEach((r) => this.redirect(r))
        return
      }
      case 'command':
        return this.command(node)
      case 'declaration_command':
        return this.declaration(node)
      case 'unset_command':
        return this.declaration(node)
      case 'variable_assignment':
        this.assignment(node, false)
        return
      case 'variable_assignments':
        for (const child of named(node)) this.statement(child)
        return
      case 'for_statement':
        return this.forStatement(node)
      case 'c_style_for_statement':
        for (const child of named(node)) {
          if (child.type === 'do_group' || child.type === 'compound_statement') this.statement(child)
          else arithmetic(child, this)
        }
        return
      case 'function_definition':
        // The body is checked as if it ran: whatever calls the function runs it.
        for (const child of named(node).slice(1)) {
          if (REDIRECTS.has(child.type)) this.redirect(child)
          else this.statement(child)
        }
        return
      case 'test_command':
        for (const child of named(node)) this.test(child)
        return
      default:
        if (REDIRECTS.has(type)) return this.redirect(node)
        this.unsupported(`"${type}"`)
    }
  }

  private container(node: SyntaxNode): void {
    for (const child of named(node)) {
      if (WORD_TYPES.has(child.type)) evaluateWord(child, this)
      else if (child.type === 'extglob_pattern' && node.type === 'case_item') continue
      else this.statement(child)
    }
  }

  private forStatement(node: SyntaxNode): void {
    const [variable, ...rest] = named(node)
    if (variable?.type === 'variable_name') this.assignedText(variable.text)
    else if (variable) this.unsupported(`the loop variable "${variable.text}"`)
    for (const child of rest) {
      if (WORD_TYPES.has(child.type)) evaluateWord(child, this)
      else this.statement(child)
    }
  }

  /** `[[ … ]]`: words are checked for substitutions; `-eq` and friends evaluate their operands as arithmetic. */
  private test(node: SyntaxNode): void {
    switch (node.type) {
      case 'binary_expression': {
        const operator = node.children.find((c) => c !== null && (c.type === 'test_operator' || !c.isNamed))
        const operands = named(node).filter((c) => c.type !== 'test_operator')
        if (operator && ARITHMETIC_TESTS.has(operator.text)) operands.forEach((o) => this.arithmeticOperand(o))
        else operands.forEach((o) => this.test(o))
        return
      }
      case 'unary_expression': {
        const operator = named(node).find((c) => c.type === 'test_operator')?.text
        const operands = named(node).filter((c) => c.type !== 'test_operator')
        if (operator === '-v' || operator === '-R') {
          for (const operand of operands) {
            if (operand.type !== 'word' || !isIdentifier(operand.text)) this.unsupported(`"${operator} ${operand.text}"`)
          }
          return
        }
        operands.forEach((o) => this.test(o))
        return
      }
      case 'parenthesized_expression':
        return named(node).forEach((c) => this.test(c))
      case 'regex':
      case 'extglob_pattern':
      case 'test_operator':
        return
      default:
        if (WORD_TYPES.has(node.type)) {
          evaluateWord(node, this)
          return
        }
        this.unsupported(`"${node.type}" in [[ ]]`)
    }
  }

  private arithmeticOperand(node: SyntaxNode): void {
    if (node.type === 'string') {
      const inner = named(node)
      if (inner.length === 1 && inner[0]?.type === 'simple_expansion') return arithmetic(inner[0], this)
    }
    arithmetic(node, this)
  }

  private redirect(node: SyntaxNode): void {
    if (node.type === 'herestring_redirect') {
      named(node).slice(0, 1).forEach((child) => evaluateWord(child, this))
      return
    }
    if (node.type === 'heredoc_redirect') return this.heredoc(node)
    // `{fd}>file` (bash puts a new descriptor into a variable) parses as a word touching the redirect.
    if (!named(node).some((c) => c.type === 'file_descriptor') && NAMED_FD_BEFORE.test(this.source.slice(0, node.startIndex))) {
      this.unsupported('a descriptor variable ({name}>…)')
    }
    const operator = node.children.find((c) => c !== null && !c.isNamed)?.type ?? ''
    for (const target of named(node).filter((c) => c.type !== 'file_descriptor').slice(0, 1)) {
      if (!WORD_TYPES.has(target.type)) {
        this.unsupported(`the redirect "${node.text}"`)
        continue
      }
      const word = evaluateWord(target, this)
      if (word.pipe) continue
      // `>&2`, `2>&1`, `<&-`: descriptor duplication or closing, not a path.
      if ((operator.endsWith('&') || operator.endsWith('&-')) && word.value !== null && /^(\d+-?|-)$/.test(word.value)) continue
      if (operator === '<&-' || operator === '>&-') continue
      this.addPath(word, operator.includes('>') ? 'write' : 'read')
    }
  }

  /**
   * A here-document. tree-sitter-bash misses some substitutions in bodies (backticks,
   * a `$(…)` after `<<-` tabs), so the grammar's body is not trusted: where the body
   * ends is checked against bash's rule (the first line equal to the delimiter), and
   * an unquoted body is parsed again as the double-quoted text it behaves like.
   */
  private heredoc(node: SyntaxNode): void {
    const start = named(node).find((c) => c.type === 'heredoc_start')
    const body = named(node).find((c) => c.type === 'heredoc_body')
    const end = named(node).find((c) => c.type === 'heredoc_end')
    const stripTabs = node.children.some((c) => c?.type === '<<-')
    for (const child of named(node)) {
      if (child.type === 'heredoc_start' || child.type === 'heredoc_end' || child.type === 'heredoc_body') continue
      if (WORD_TYPES.has(child.type)) continue // an argument after `<<EOF`, taken by the command
      if (REDIRECTS.has(child.type)) this.redirect(child)
      else this.statement(child)
    }
    if (!start || !end) return this.unsupported('an unterminated here-document')
    const quoted = /['"\\]/.test(start.text)
    const delimiter = start.text.replace(/['"\\]/g, '')
    // From the start of the body's first line: the grammar may leave out leading blanks there.
    const first = body ? body.startIndex : end.startIndex
    const from = this.source.lastIndexOf('\n', first - 1) + 1
    const text = this.source.slice(from, end.startIndex)
    const lines = text.split('\n')
    const last = lines.pop() ?? ''
    const strip = (line: string): string => (stripTabs ? line.replace(/^\t+/, '') : line)
    const endsRight = end.text === delimiter && strip(last) === '' && /^(\n|$)/.test(this.source.slice(end.endIndex))
    if (!endsRight || lines.some((line) => strip(line) === delimiter)) {
      return this.unsupported(`a here-document whose end is unclear ("${delimiter}")`)
    }
    if (quoted || !/[$`]/.test(text)) return
    this.asDoubleQuoted(text, 'a here-document body')
  }

  expansionPattern(text: string): void {
    this.asDoubleQuoted(text, `the pattern "${text}"`)
  }

  /**
   * Walks text as the double-quoted string it behaves like (a here-document body, the
   * pattern of `${x#…}`): every `$(…)`, backtick and expansion in it is checked. Quotes
   * inside are taken literally, which may find more than bash runs, never less.
   */
  private asDoubleQuoted(text: string, what: string): void {
    const asString = `: "${text.replace(/\\[\s\S]|"/g, (m) => (m === '"' ? '\\"' : m))}"`
    this.parser.parse(asString, (root) => {
      const word = root.namedChild(0)?.namedChild(1)
      if (root.hasError || word?.type !== 'string') return this.unsupported(`${what} that cannot be read`)
      evaluateWord(word, this)
    })
  }

  /** An assignment's name (with a checked subscript) and value; the value is walked for substitutions. */
  private assignment(node: SyntaxNode, prefix: boolean): ShellWord {
    const [target, ...values] = named(node)
    let name: string | undefined
    if (target?.type === 'variable_name') name = target.text
    else if (target?.type === 'subscript') {
      name = named(target)[0]?.text
      subscript(target, this)
    } else this.unsupported(`the assignment "${node.text}"`)
    let value: string | null = ''
    for (const child of values) {
      if (child.type === 'array') {
        for (const element of named(child)) evaluateWord(element, this)
        value = null
        continue
      }
      if (!WORD_TYPES.has(child.type)) {
        this.unsupported(`the assignment "${node.text}"`)
        value = null
        continue
      }
      const word = evaluateWord(child, this)
      value = value === null || word.value === null ? null : value + word.value
    }
    if (name !== undefined && (value === null || !/^-?\d*$/.test(value))) this.assignedText(name)
    if (name !== undefined && !prefix && isRiskyVariable(name)) this.unsupported(`setting ${name}`)
    const operator = node.children.find((c) => c !== null && !c.isNamed)?.type ?? '='
    const staticName = target?.type === 'variable_name' ? target.text : null
    return {
      raw: node.text,
      value: staticName !== null && value !== null ? `${staticName}${operator}${value}` : null,
      expands: false,
      chars: null,
    }
  }

  /** `declare`/`export`/`local`/`readonly`/`typeset` and `unset`, checked as commands of those names. */
  private declaration(node: SyntaxNode): void {
    const keyword = node.child(0)?.type ?? ''
    const words: ShellWord[] = [{ raw: keyword, value: keyword, expands: false, chars: null }]
    for (const child of named(node)) {
      if (child.type === 'variable_assignment') words.push(this.assignment(child, false))
      else if (child.type === 'variable_name') words.push({ raw: child.text, value: child.text, expands: false, chars: null })
      else if (WORD_TYPES.has(child.type)) words.push(evaluateWord(child, this))
      else if (REDIRECTS.has(child.type)) this.redirect(child)
      else this.unsupported(`"${child.type}" in ${keyword}`)
    }
    this.emit({ words, riskyAssignments: [] })
  }

  private command(node: SyntaxNode, trailing: SyntaxNode[] = []): void {
    const assignments: ShellWord[] = []
    const words: ShellWord[] = []
    const redirects: SyntaxNode[] = []
    for (const child of named(node)) {
      if (child.type === 'variable_assignment') assignments.push(this.assignment(child, true))
      else if (REDIRECTS.has(child.type)) {
        redirects.push(child)
        for (const word of extraWords(child)) words.push(evaluateWord(word, this))
      } else if (child.type === 'command_name') {
        const inner = child.namedChild(0)
        if (inner && WORD_TYPES.has(inner.type)) words.push(evaluateWord(inner, this))
        else this.unsupported(`the command name "${child.text}"`)
      } else if (WORD_TYPES.has(child.type) || child.type === 'regex') {
        words.push(child.type === 'regex' ? { raw: child.text, value: child.text, expands: false, chars: null } : evaluateWord(child, this))
      } else this.unsupported(`"${child.type}" in a command`)
    }
    for (const word of trailing) words.push(evaluateWord(word, this))
    for (const redirect of redirects) this.redirect(redirect)
    this.words(assignments, words, node.text)
  }

  /** A line of plain words (see `plainWords`): the command those words are. */
  plainCommand(words: ShellWord[]): void {
    this.words([], words, words.map(display).join(' '))
  }

  private words(assignments: ShellWord[], words: ShellWord[], text: string): void {
    if (words.length === 0) return
    const unwrapped = unwrapCommand(assignments, words)
    for (const emitted of unwrapped.commands) this.emit(emitted)
    for (const script of unwrapped.scripts) {
      if (script === null) {
        this.commands.push({ argv: words.map(display), text, computed: true, readOnly: false })
        continue
      }
      this.script(script, this.depth + 1)
    }
  }

  private emit(emitted: EmittedCommand): void {
    const first = emitted.words[0]
    if (!first) return
    const computed = first.value === null || first.expands || first.ansiC === true
    const prefix = emitted.riskyAssignments.map(display)
    // A name spelled with `$'…'` is shown as written: that is what the user should see.
    const argv = [...prefix, ...emitted.words.map((w, i) => (i === 0 && w.ansiC ? w.raw : display(w)))]
    const always = computed || prefix.length > 0
      ? undefined
      : alwaysPattern(emitted.words.map((w) => w.value), emitted.words.map((w) => w.expands))
    const command: AnalyzedCommand = { argv, text: argv.join(' '), computed, readOnly: false, ...(always ? { always } : {}) }
    this.commands.push(command)
    if (computed) {
      this.trackPaths(emitted.words, undefined)
      return
    }
    const name = first.value as string
    const args = this.passedArguments(name, emitted.words.slice(1))
    // A glob or brace that bash turns into an option (`-*` over a file named `-delete`) is checked as that option.
    if (args !== null && args.some((arg, i) => arg.startsWith('-') && arg !== emitted.words[i + 1]?.value)) {
      command.argv = [...prefix, argv[prefix.length] as string, ...args]
      command.text = command.argv.join(' ')
    }
    command.readOnly = args !== null && prefix.length === 0 && emitted.runtimeArguments === undefined &&
      isPlainProgram(name) && readsOnly(programName(name), args)
    if (args !== null && readsFileListAtRunTime(programName(name), args)) {
      this.addPath(FILE_LIST_READ, 'read')
    }
    this.recursiveReads(programName(name), args)
    if (UNSUPPORTED_COMMANDS.has(name)) this.unsupported(`"${name}"`)
    checkBuiltin(emitted.words, this)
    this.trackPaths(runtimeWords(emitted), name)
    if (name === 'cd' || name === 'pushd' || name === 'popd') {
      command.cdTargets = this.changeDirectory(name, emitted.words)
      // `CDPATH=… cd x` resolves x against other folders: where it ends up is not known.
      if (prefix.length > 0) {
        delete command.cdTargets
        this.cwds = null
      }
    }
  }

  /**
   * The arguments as bash passes them: braces and globs expanded against the tree (a
   * glob that matches nothing stays as written). Null when one is only known at run
   * time (unless the program takes any text) or a glob cannot be matched statically.
   */
  private passedArguments(name: string, words: readonly ShellWord[]): string[] | null {
    const out: string[] = []
    // Only a table entry needs every word as passed (`uniq *.txt` may name an output); for other
    // programs a glob matters only where it may turn into an option.
    const everyWord = hasReadOnlyEntry(programName(name))
    for (const word of words) {
      if (!everyWord && word.value !== null && word.chars !== null && !mayBecomeOption(word.chars)) {
        out.push(word.value)
        continue
      }
      if (word.value === null || word.chars === null) {
        if (!takesComputedArguments(programName(name))) return null
        out.push(word.raw)
        continue
      }
      if (!word.expands) {
        out.push(word.value)
        continue
      }
      const variants = expandBraces(word.chars)
      if (variants === null) return null
      for (const variant of variants) {
        if (!hasGlob(variant)) {
          out.push(variant.map((ch) => ch.c).join(''))
          continue
        }
        const cwds = this.cwds
        if (cwds === null) return null
        for (const cwd of cwds) {
          const matches = expandGlob(variant, cwd)
          if (matches === null) return null
          const absolute = variant[0]?.c === '/'
          out.push(...matches.map((m) => (absolute ? m : m.slice(under(cwd, '').length))))
        }
      }
    }
    return out
  }

  /**
   * What a recursive reader reads in the folders it walks: each file is a read (so `read`
   * rules hold for what `grep -r` reaches), each followed link a path (an ask naming a
   * target outside). A walk that cannot be made or finished is a read of unknown files.
   */
  private recursiveReads(program: string, args: string[] | null): void {
    const operandsOf = (list: string[]): string[] =>
      readOperands([program, ...list].map((value) => ({ raw: value, value, expands: false, chars: null }))).map((i) => list[i - 1] as string)
    const read = args === null ? recursiveRead(program, [], []) : recursiveRead(program, args, operandsOf(args))
    if (!read) return
    if (args === null || this.cwds === null) {
      this.addPath(UNKNOWN_TREE, 'read')
      return
    }
    for (const cwd of this.cwds) {
      const starts = read.starts.map((start) => (start.startsWith('/') ? start : under(cwd, start)))
      const walk = walkRecursive(read, starts, this.home)
      if (!walk.complete) this.addPath(UNKNOWN_TREE, 'read')
      for (const link of walk.links) this.addPath({ raw: link, value: link, expands: false, chars: null }, read.contents ? 'read' : 'argument', [link])
      for (const file of walk.linkedFiles) this.addPath({ raw: file, value: file, expands: false, chars: null }, 'read', [file])
      for (const file of walk.files) {
        this.paths.push({ path: file, raw: file, access: 'read', cwds: [cwd], expanded: [file], recursive: true })
      }
    }
  }

  private trackPaths(words: ShellWord[], name: string | undefined): void {
    const reads = new Set(readOperands(words))
    const noFiles = name !== undefined && NO_FILE_ARGUMENTS.has(name)
    const isCd = name === 'cd' || name === 'pushd'
    for (const [index, word] of words.entries()) {
      if (index === 0 || word.pipe) continue
      const access = reads.has(index) ? 'read' : 'argument'
      if (word.value === null || word.chars === null) {
        // A computed argument may name any file, inside or outside.
        if (!noFiles && !isCd) this.addPath(word, access)
        continue
      }
      let chars = word.chars
      let value = word.value
      if (access === 'argument' && value.startsWith('-')) {
        // `--output=/etc/x`: the value after `=` is a path argument too.
        const eq = value.indexOf('=')
        if (eq < 0) continue
        chars = chars.slice(eq + 1)
        value = value.slice(eq + 1)
      }
      if (isCd) continue
      const expanded = this.expand(chars)
      const pathLike = access === 'read' || looksLikePath(value) || hasGlob(chars) || (expanded?.some(exists) ?? false)
      if (pathLike) this.addPath({ ...word, value, chars }, access, expanded)
    }
    for (const { index, offset } of optionFileReads(words)) {
      const word = words[index] as ShellWord
      if (word.value === null || word.chars === null) continue // already checked as a computed argument
      const chars = word.chars.slice(offset)
      this.addPath({ ...word, value: word.value.slice(offset), chars }, 'read')
    }
  }

  private changeDirectory(name: string, words: ShellWord[]): AnalyzedPath[] {
    if (name === 'popd') {
      this.cwds = null
      return []
    }
    const target = words.slice(1).find((w) => !(w.value ?? '').startsWith('-') || w.value === '-')
    const home: ShellWord = { raw: '~', value: '~', expands: false, chars: [{ c: '~', q: false }] }
    if (!target && name === 'pushd') {
      this.cwds = null
      return []
    }
    const word = target ?? home
    if (word.value === null || word.chars === null || word.value === '-') {
      this.addPath(word, 'argument', null)
      this.cwds = null
      return [this.paths.at(-1) as AnalyzedPath]
    }
    const expanded = this.expand(word.chars)
    const entry = this.addPath(word, 'argument', expanded)
    if (expanded === null) this.cwds = null
    else if (this.cwds) this.cwds = [...new Set([...this.cwds, ...expanded])]
    return [entry]
  }

  /** The absolute paths a literal word names, for every directory it may be relative to. */
  private expand(chars: WordChar[]): string[] | null {
    const variants = expandBraces(chars)
    if (variants === null) return null
    const out: string[] = []
    for (const variant of variants) {
      const cwds = this.cwds ?? (independentOfCwd(variant) ? ['/'] : null)
      if (cwds === null) return null
      const plain = variant.map((ch) => ch.c).join('')
      const tail = rest(variant)
      for (const cwd of cwds) {
        const text = expandTilde(variant, cwd)
        if (text === null) return null
        // A tilde-expanded prefix is quoted text; the rest keeps its quoting.
        const chars = text === plain ? variant : [...[...text.slice(0, text.length - tail.length)].map((c) => ({ c, q: true })), ...tail]
        if (hasGlob(chars)) {
          const matches = expandGlob(chars, cwd)
          if (matches === null) return null
          out.push(...matches)
        } else out.push(text.startsWith('/') ? text : under(cwd, text))
      }
    }
    return out
  }

  private addPath(word: ShellWord, access: AnalyzedPath['access'], expanded?: string[] | null): AnalyzedPath {
    const resolved = expanded === undefined ? (word.chars === null ? null : this.expand(word.chars)) : expanded
    const entry: AnalyzedPath = {
      path: word.value,
      raw: word.raw,
      access,
      cwds: this.cwds ? [...this.cwds] : null,
      expanded: word.value === null ? null : resolved,
      ...(word.found ? { found: true } : {}),
    }
    this.paths.push(entry)
    return entry
  }
}

const RUNTIME_ARGUMENT: ShellWord = { raw: '{}', value: null, expands: false, chars: null }
/** What a recursive reader reads in a tree too large to walk, or one whose place is not known. */
const UNKNOWN_TREE: ShellWord = { raw: 'files of a tree read recursively', value: null, expands: false, chars: null }
/** `--files0-from`: the names of the files read come from a file or stdin at run time. */
const FILE_LIST_READ: ShellWord = { raw: 'files named in --files0-from', value: null, expands: false, chars: null }

/**
 * The words whose paths are checked: `find -exec`'s `{}` is a found path (under the
 * literal start points, links not followed, so it names a file of those trees; a
 * reader of it still gets a read check); `xargs` appends words read at run time,
 * which may name any file.
 */
function runtimeWords(emitted: EmittedCommand): ShellWord[] {
  if (emitted.runtimeArguments === 'xargs') return [...emitted.words, RUNTIME_ARGUMENT]
  if (emitted.runtimeArguments !== 'find') return emitted.words
  const reads = new Set(readOperands(emitted.words))
  return emitted.words.map((w, i) => (w.value === '{}' && reads.has(i) ? { ...RUNTIME_ARGUMENT, found: true } : w))
}

/** Words the grammar put under a redirect after its target; bash takes them as the command's arguments. */
function extraWords(redirect: SyntaxNode): SyntaxNode[] {
  if (redirect.type === 'heredoc_redirect') return named(redirect).filter((c) => WORD_TYPES.has(c.type))
  if (redirect.type !== 'file_redirect' && redirect.type !== 'herestring_redirect') return []
  return named(redirect).filter((c) => c.type !== 'file_descriptor').slice(1)
}

/** An absolute path or `~`/`~user` prefix: known without knowing the working directory. */
function independentOfCwd(chars: WordChar[]): boolean {
  const first = chars[0]
  if (!first || first.q) return false
  if (first.c === '/') return true
  return first.c === '~' && chars[1]?.c !== '+' && chars[1]?.c !== '-'
}

/** The part of a word after its `~…` prefix (the whole word when it has none). */
function rest(chars: WordChar[]): WordChar[] {
  if (chars[0]?.c !== '~' || chars[0].q) return chars
  const slash = chars.findIndex((ch) => ch.c === '/')
  return slash < 0 ? [] : chars.slice(slash)
}

/** The program's own name: `/usr/bin/ls` is `ls`. */
function programName(name: string): string {
  return name.slice(name.lastIndexOf('/') + 1)
}

/** A program found on PATH or in a system folder; `./ls` or `/tmp/ls` is some other program. */
function isPlainProgram(name: string): boolean {
  return !name.includes('/') || /^\/(usr\/)?(local\/)?s?bin\/[^/]+$/.test(name)
}

/** A word whose expansion may start with `-`: it starts with an unquoted glob or brace. */
function mayBecomeOption(chars: WordChar[]): boolean {
  const first = chars[0]
  return first !== undefined && !first.q && '*?[{-'.includes(first.c)
}
