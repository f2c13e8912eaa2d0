import type { ShellWord } from './words'

/** A command a simple command runs, after wrappers such as `env`, `timeout` or `sudo` are looked through. */
export interface EmittedCommand {
  words: ShellWord[]
  /** Environment assignments that change what the command does (`LD_PRELOAD=…`); kept in the checked text. */
  riskyAssignments: ShellWord[]
  /**
   * Run with arguments only known at run time: `xargs` appends what it reads, `find -exec`
   * puts each found path at `{}`.
   */
  runtimeArguments?: 'xargs' | 'find'
}

export interface Unwrapped {
  commands: EmittedCommand[]
  /** Shell source run by the command (`bash -c`, `eval`, `env -S`, `watch`); null when computed. */
  scripts: Array<string | null>
}

/**
 * Variables that let an otherwise harmless command run something else, read another
 * config, or resolve somewhere else (`CDPATH=/tmp cd x`, `RIPGREP_CONFIG_PATH=f rg`).
 */
const RISKY_VARIABLE =
  /^(LD_[A-Z_]+|DYLD_[A-Z_]+|PATH|BASH_ENV|ENV|PROMPT_COMMAND|SHELLOPTS|BASHOPTS|PS4|IFS|NODE_OPTIONS|PYTHONSTARTUP|PYTHONPATH|PERL5OPT|PERL5LIB|RUBYOPT|RUBYLIB|GIT_[A-Z_]+|[A-Z_]*_COMMAND|PAGER|[A-Z_]+_PAGER|EDITOR|VISUAL|BROWSER|SSH_ASKPASS|SUDO_ASKPASS|npm_config_[a-z_]+|NPM_CONFIG_[A-Z_]+|LESSOPEN|LESSCLOSE|MANPAGER|ZDOTDIR|GCONV_PATH|NODE_PATH|PYTHONHOME|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|RUSTC_WRAPPER|BASH_FUNC_[^=]*|HOME|TMPDIR|XDG_CONFIG_HOME|CDPATH|RIPGREP_CONFIG_PATH|GREP_OPTIONS|GLOBIGNORE|LESS|LESSKEY[A-Z_]*|TAR_OPTIONS|SHELL|POSIXLY_CORRECT|[A-Z_]*CONFIG[A-Z_]*|MANOPT|BASH_XTRACEFD|TERMINFO)(\[.*\])?\+?=/

/** True for a variable whose value makes other commands run something else (PATH, BASH_ENV, IFS…). */
export function isRiskyVariable(name: string): boolean {
  return RISKY_VARIABLE.test(`${name}=`)
}

const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'busybox'])

interface WrapperSpec {
  /** Options that take the next word as their value. */
  valued: Set<string>
  /** Positional words the wrapper takes before the command (e.g. timeout's duration). */
  positional?: number
  /** Options that name a file the wrapper writes (`time -o`, `strace -o`): then it is checked as a command too. */
  outputs?: Set<string>
  /**
   * Check the whole command as well as the inner one: the wrapper can change privileges
   * (`sudo`), or is a proxy whose own always pattern is scoped to what it wraps (`rtk`).
   */
  privileged?: boolean
}

/** A `Map`, so that names such as `constructor` or `__proto__` are ordinary commands. */
const WRAPPERS = new Map<string, WrapperSpec>(Object.entries({
  timeout: { valued: new Set(['-s', '--signal', '-k', '--kill-after']), positional: 1 },
  nice: { valued: new Set(['-n', '--adjustment']) },
  ionice: { valued: new Set(['-c', '--class', '-n', '--classdata', '-p', '-P', '-u']) },
  nohup: { valued: new Set() },
  time: { valued: new Set(['-f', '--format', '-o', '--output']), outputs: new Set(['-o', '--output', '-a', '--append']) },
  stdbuf: { valued: new Set(['-i', '-o', '-e', '--input', '--output', '--error']) },
  setsid: { valued: new Set() },
  command: { valued: new Set() },
  builtin: { valued: new Set() },
  exec: { valued: new Set(['-a']) },
  caffeinate: { valued: new Set(['-t', '-w']) },
  chronic: { valued: new Set() },
  unbuffer: { valued: new Set() },
  xargs: {
    valued: new Set(['-I', '-L', '-n', '-P', '-s', '-d', '-E', '-a', '--max-args', '--max-procs', '--delimiter',
      '--arg-file', '--eof', '--replace', '--max-lines', '--max-chars', '--process-slot-var']),
  },
  sudo: {
    valued: new Set(['-u', '--user', '-g', '--group', '-C', '--close-from', '-D', '--chdir', '-h', '--host', '-p',
      '--prompt', '-r', '--role', '-t', '--type', '-U', '--other-user', '-T', '--command-timeout']),
    privileged: true,
  },
  doas: { valued: new Set(['-u', '-C']), privileged: true },
  chroot: { valued: new Set(['--userspec', '--groups']), positional: 1, privileged: true },
  taskset: { valued: new Set(), positional: 1 },
  chrt: { valued: new Set(), positional: 1 },
  numactl: { valued: new Set(['-C', '-N', '-m', '-p', '-i', '--physcpubind', '--cpunodebind', '--membind', '--preferred', '--interleave']) },
  flock: { valued: new Set(['-w', '--wait', '--timeout', '-E', '--conflict-exit-code']), positional: 1 },
  fakeroot: { valued: new Set(['-l', '--lib', '--faked', '-s', '-i']) },
  faketime: { valued: new Set(['-m', '-f']), positional: 1 },
  proxychains: { valued: new Set(['-f']) },
  proxychains4: { valued: new Set(['-f']) },
  torsocks: { valued: new Set(['-u', '-p', '-a', '-P']) },
  strace: { valued: new Set(['-o', '-e', '-p', '-s', '-E', '-u', '-a', '-I', '-b', '-X', '-P', '-S']), outputs: new Set(['-o']) },
  ltrace: { valued: new Set(['-o', '-e', '-p', '-s', '-a', '-n', '-u', '-F', '-l']), outputs: new Set(['-o']) },
  valgrind: { valued: new Set() },
  unshare: { valued: new Set(['-S', '--setuid', '-G', '--setgid', '-R', '--root', '-w', '--wd']) },
  nsenter: { valued: new Set(['-t', '--target', '-S', '--setuid', '-G', '--setgid', '-r', '--root', '-w', '--wd']), privileged: true },
  firejail: { valued: new Set() },
  'xvfb-run': { valued: new Set(['-n', '--server-num', '-s', '--server-args', '-f', '--auth-file', '-e', '--error-file', '-p', '--xauth-protocol', '-l', '-w', '--wait']) },
  rtk: { valued: new Set(), privileged: true },
  'dbus-run-session': { valued: new Set(['--config-file', '--dbus-daemon']) },
} satisfies Record<string, WrapperSpec>))

function baseName(word: ShellWord | undefined): string | undefined {
  const value = word?.value
  if (value === null || value === undefined) return undefined
  return value.slice(value.lastIndexOf('/') + 1)
}

function isRisky(assignment: ShellWord): boolean {
  return RISKY_VARIABLE.test(assignment.value ?? assignment.raw)
}

/** Skips a wrapper's options and positional words; returns the index of the wrapped command. */
function skipOptions(words: ShellWord[], start: number, spec: WrapperSpec): number {
  let i = start
  while (i < words.length) {
    const value = words[i]?.value
    if (value === null || value === undefined) return i
    if (value === '--') return i + 1
    if (!value.startsWith('-') || value === '-') break
    const [flag] = value.split('=', 1)
    i += spec.valued.has(flag ?? value) && !value.includes('=') ? 2 : 1
  }
  return i + (spec.positional ?? 0)
}

/**
 * Looks through wrappers to the commands that really run. Each emitted command is
 * checked against the rules on its own: `timeout 5 npm test` is checked as
 * `npm test`, `sudo rm x` as both `sudo rm x` and `rm x`, and `bash -c "…"`,
 * `eval …`, `env -S …`, `watch …`, `trap '…' SIG` and `alias n='…'` hand their
 * source back to be parsed in turn.
 */
export function unwrapCommand(assignments: ShellWord[], words: ShellWord[]): Unwrapped {
  const result: Unwrapped = { commands: [], scripts: [] }
  unwrapInto(result, assignments.filter(isRisky), words, 0)
  return result
}

function unwrapInto(result: Unwrapped, risky: ShellWord[], words: ShellWord[], depth: number): void {
  if (words.length === 0) return
  if (depth > 8) {
    result.scripts.push(null)
    return
  }
  const name = baseName(words[0])
  if (name === undefined || words[0]?.expands) {
    result.commands.push({ words, riskyAssignments: risky })
    return
  }
  if (name === 'env') return unwrapEnv(result, risky, words, depth)
  if (name === 'eval') {
    const body = words.slice(1)
    result.scripts.push(body.every((w) => w.value !== null) ? body.map((w) => w.value).join(' ') : null)
    return
  }
  if (SHELLS.has(name)) return unwrapShell(result, risky, words)
  if (name === 'watch') {
    const at = skipOptions(words, 1, { valued: new Set(['-n', '--interval', '-d', '-q', '--equexit']) })
    const body = words.slice(at)
    if (body.length > 0) result.scripts.push(body.every((w) => w.value !== null) ? body.map((w) => w.value).join(' ') : null)
    result.commands.push({ words: words.slice(0, at), riskyAssignments: risky })
    return
  }
  if (name === 'find') return unwrapFind(result, risky, words, depth)
  if (name === 'trap') return unwrapTrap(result, risky, words)
  if (name === 'su' || name === 'script' || name === 'runuser') return unwrapCommandOption(result, risky, words)
  if (name === 'alias') return unwrapAlias(result, risky, words)
  const spec = WRAPPERS.get(name)
  if (!spec) {
    result.commands.push({ words, riskyAssignments: risky })
    return
  }
  // `command -v x` and `command -V x` only look a name up.
  if (name === 'command' && words.slice(1).some((w) => w.value === '-v' || w.value === '-V')) {
    result.commands.push({ words, riskyAssignments: risky })
    return
  }
  const at = skipOptions(words, 1, spec)
  const writes = spec.outputs && words.slice(1, at).some((w) => w.value === null || spec.outputs?.has((w.value.split('=', 1)[0] as string)) || /^-o./.test(w.value))
  if (spec.privileged || writes) result.commands.push({ words, riskyAssignments: risky })
  const inner = words.slice(at)
  if (inner.length === 0) {
    if (!spec.privileged && !writes) result.commands.push({ words, riskyAssignments: risky })
    return
  }
  const first = result.commands.length
  unwrapInto(result, risky, inner, depth + 1)
  if (name === 'xargs') markRuntimeArguments(result, first, 'xargs')
}

function markRuntimeArguments(result: Unwrapped, from: number, kind: 'xargs' | 'find'): void {
  for (const command of result.commands.slice(from)) command.runtimeArguments ??= kind
}

function unwrapEnv(result: Unwrapped, risky: ShellWord[], words: ShellWord[], depth: number): void {
  const extra = [...risky]
  let i = 1
  while (i < words.length) {
    const word = words[i] as ShellWord
    const value = word.value
    if (value === null) {
      result.commands.push({ words, riskyAssignments: risky })
      return
    }
    if (value === '-S' || value === '--split-string' || value.startsWith('--split-string=') || /^-[a-zA-Z]*S/.test(value)) {
      const inline = value.startsWith('--split-string=') ? value.slice('--split-string='.length) : value.replace(/^-[a-zA-Z]*S/, '')
      const rest = words.slice(inline ? i + 1 : i + 2)
      const head = inline || words[i + 1]?.value
      if (head === null || head === undefined || rest.some((w) => w.value === null)) result.scripts.push(null)
      else result.scripts.push([head, ...rest.map((w) => w.value)].join(' '))
      return
    }
    if (value === '-u' || value === '--unset' || value === '-C' || value === '--chdir') {
      i += 2
      continue
    }
    if (value === '--') {
      i++
      break
    }
    if (value.startsWith('-')) {
      i++
      continue
    }
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(value)) {
      if (isRisky(word)) extra.push(word)
      i++
      continue
    }
    break
  }
  const inner = words.slice(i)
  if (inner.length === 0) {
    result.commands.push({ words, riskyAssignments: risky })
    return
  }
  unwrapInto(result, extra, inner, depth + 1)
}

function unwrapShell(result: Unwrapped, risky: ShellWord[], words: ShellWord[]): void {
  let i = 1
  let hasC = false
  while (i < words.length) {
    const value = words[i]?.value
    if (value === null || value === undefined) break
    if (value === '--') {
      i++
      break
    }
    if (!/^[-+]/.test(value) || value === '-') break
    if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(value)) hasC = true
    // `-o option` and `-O option` take a value.
    i += value === '-o' || value === '+o' || value === '-O' || value === '+O' ? 2 : 1
  }
  if (!hasC) {
    result.commands.push({ words, riskyAssignments: risky })
    return
  }
  const body = words[i]
  if (!body) {
    result.commands.push({ words, riskyAssignments: risky })
    return
  }
  if (risky.length > 0) result.commands.push({ words, riskyAssignments: risky })
  result.scripts.push(body.value)
}

function unwrapFind(result: Unwrapped, risky: ShellWord[], words: ShellWord[], depth: number): void {
  result.commands.push({ words, riskyAssignments: risky })
  for (let i = 1; i < words.length; i++) {
    const value = words[i]?.value
    if (value !== '-exec' && value !== '-execdir' && value !== '-ok' && value !== '-okdir') continue
    const end = words.findIndex((w, j) => j > i && (w.value === ';' || w.value === '+'))
    const inner = words.slice(i + 1, end < 0 ? words.length : end)
    const first = result.commands.length
    unwrapInto(result, [], inner, depth + 1)
    markRuntimeArguments(result, first, 'find')
    if (end < 0) return
    i = end
  }
}

/** `trap 'cmd' SIGNAL…`: the handler is shell source run later in this shell. */
function unwrapTrap(result: Unwrapped, risky: ShellWord[], words: ShellWord[]): void {
  result.commands.push({ words, riskyAssignments: risky })
  let i = 1
  while (i < words.length && /^-[lp]+$/.test(words[i]?.value ?? '')) i++
  if (words[i]?.value === '--') i++
  const handler = words[i]
  // `trap - SIG` resets, `trap '' SIG` ignores; anything else is source.
  if (!handler || i + 1 >= words.length || handler.value === '-' || handler.value === '') return
  result.scripts.push(handler.value)
}

/** `alias name='source'`: with `expand_aliases` the value runs wherever the name is used. */
function unwrapAlias(result: Unwrapped, risky: ShellWord[], words: ShellWord[]): void {
  result.commands.push({ words, riskyAssignments: risky })
  for (const word of words.slice(1)) {
    if (word.value === null) {
      result.scripts.push(null)
      continue
    }
    const eq = word.value.indexOf('=')
    if (eq > 0) result.scripts.push(word.value.slice(eq + 1))
  }
}

/** `su -c 'cmd'`, `runuser -c`, `script -c 'cmd'`: the option's value is shell source. */
function unwrapCommandOption(result: Unwrapped, risky: ShellWord[], words: ShellWord[]): void {
  result.commands.push({ words, riskyAssignments: risky })
  for (const [i, word] of words.entries()) {
    const value = word.value
    if (value === '-c' || value === '--command') result.scripts.push(words[i + 1]?.value ?? null)
    else if (value?.startsWith('--command=')) result.scripts.push(value.slice('--command='.length))
  }
}
