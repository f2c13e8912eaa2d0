import { expandHome } from '../paths'
import { alwaysPattern } from './arity'
import { checkBashGrammar } from './bash-grammar'
import { ShellCommandParser, ShellSyntaxError, type ShellWord, type SimpleCommand } from './parser'
import { unwrapCommand } from './wrappers'

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
}

export type PathAccess = 'read' | 'write' | 'argument'

/** A path the line touches: redirect targets and path-like arguments. */
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
}

export type ShellAnalysis =
  | { ok: true; commands: AnalyzedCommand[]; paths: AnalyzedPath[] }
  | { ok: false; reason: string }

const MAX_NESTING = 8

/**
 * Analyzes a bash command line. The text must parse as bash (checked with a real
 * bash parser) and our walker must understand it; otherwise the result is
 * `ok: false` and callers ask without offering "always". Fail closed.
 */
export async function analyzeShell(command: string, cwd: string): Promise<ShellAnalysis> {
  const commands: AnalyzedCommand[] = []
  const paths: AnalyzedPath[] = []
  const state: WalkState = { cwds: [cwd], commands, paths }
  try {
    await walkScript(command, state, 0)
  } catch (error) {
    if (error instanceof ShellSyntaxError) return { ok: false, reason: error.message }
    throw error
  }
  return { ok: true, commands, paths }
}

interface WalkState {
  cwds: string[] | null
  commands: AnalyzedCommand[]
  paths: AnalyzedPath[]
}

async function walkScript(script: string, state: WalkState, depth: number): Promise<void> {
  if (depth > MAX_NESTING) throw new ShellSyntaxError('shell bodies nested too deeply')
  if (script.includes('\0')) throw new ShellSyntaxError('NUL byte in command')
  // The real bash grammar decides what is valid; our walker only has to find commands in valid input.
  await validateBash(script)
  for (const simple of ShellCommandParser.parse(script)) await walkSimple(simple, state, depth)
}

async function validateBash(script: string): Promise<void> {
  try {
    await checkBashGrammar(script)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    throw new ShellSyntaxError(`not valid bash: ${message}`)
  }
}

async function walkSimple(simple: SimpleCommand, state: WalkState, depth: number): Promise<void> {
  for (const redirect of simple.redirects) {
    // A here-string is data, not a path.
    if (!redirect.target || redirect.op.endsWith('<<<')) continue
    addPath(state, redirect.target, redirect.op.includes('>') ? 'write' : 'read')
  }
  if (simple.words.length === 0) return
  const unwrapped = unwrapCommand(simple.assignments, simple.words)
  for (const emitted of unwrapped.commands) {
    const argv = emitted.words.map(display)
    const computed = emitted.words[0]?.value === null || (emitted.words[0]?.expands ?? false)
    const prefix = emitted.riskyAssignments.map(display)
    const text = [...prefix, ...argv].join(' ')
    const always = computed || prefix.length > 0 ? undefined : alwaysPattern(emitted.words.map((w) => w.value), emitted.words.map((w) => w.expands))
    state.commands.push({ argv: [...prefix, ...argv], text, computed, ...(always ? { always } : {}) })
    trackPaths(emitted.words, state)
  }
  for (const script of unwrapped.scripts) {
    if (script === null) {
      state.commands.push({ argv: simple.words.map(display), text: simple.source, computed: true })
      continue
    }
    await walkScript(script, state, depth + 1)
  }
}

function display(word: ShellWord): string {
  return word.value ?? word.raw
}

function addPath(state: WalkState, word: ShellWord, access: PathAccess): void {
  state.paths.push({ path: word.value, raw: word.raw, access, cwds: state.cwds ? [...state.cwds] : null })
}

const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i

/** True for an argument that names a file system location (not an option, URL or plain word). */
function looksLikePath(value: string): boolean {
  if (value === '' || URL_LIKE.test(value)) return false
  return value.startsWith('/') || value.startsWith('~') || value === '.' || value === '..' || value.startsWith('./') ||
    value.startsWith('../') || value.includes('/')
}

function trackPaths(words: ShellWord[], state: WalkState): void {
  const name = words[0]?.value
  for (const word of words.slice(1)) {
    if (word.value === null) continue
    let value = word.value
    if (value.startsWith('-')) {
      // `--output=/etc/x`: the value after `=` is a path argument too.
      const eq = value.indexOf('=')
      if (eq < 0) continue
      value = value.slice(eq + 1)
    }
    if (looksLikePath(value)) addPath(state, { ...word, value }, 'argument')
  }
  if (name === 'cd' || name === 'pushd') {
    const target = words.slice(1).find((w) => !(w.value ?? '').startsWith('-'))
    if (!target) return
    if (target.value === null) {
      addPath(state, target, 'argument')
      state.cwds = null
      return
    }
    if (!looksLikePath(target.value)) addPath(state, target, 'argument')
    if (state.cwds) state.cwds = [...new Set([...state.cwds, ...state.cwds.map((c) => joinCwd(c, target.value as string))])]
  }
}

function joinCwd(cwd: string, target: string): string {
  const expanded = expandHome(target)
  if (expanded.startsWith('/')) return expanded
  return `${cwd}/${expanded}`
}
