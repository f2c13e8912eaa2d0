import { Permission } from '../names'
import { canonicalRoot, externalPattern, resolveToolPath } from '../paths'
import type { PermissionAsk } from '../service'
import { analyzeShell, type AnalyzedCommand, type AnalyzedPath, type ShellAnalysis } from './analyze'
import { isDirectory } from '../../util/is-directory'

/** Device files a command may always read or write. */
const HARMLESS_DEVICES = /^\/dev\/(null|zero|stdin|stdout|stderr|tty|fd\/[0-9]+|u?random)$/

interface Collected {
  patterns: Set<string>
  /** Patterns that are read-only commands (`@read-only` rules match them). */
  readOnly: Set<string>
  /** Patterns also given by a command that is not read-only (`ls` after `./ls`): never read-only. */
  mixed: Set<string>
  always: Set<string>
  /** Something in it was computed: no "always" for this ask. */
  noAlways: boolean
  /** Something in it is not known statically: no rule may allow it, the user must answer. */
  forceAsk: boolean
}

function collector(): Collected {
  return { patterns: new Set(), readOnly: new Set(), mixed: new Set(), always: new Set(), noAlways: false, forceAsk: false }
}

function toAsk(permission: string, title: string, c: Collected, metadata: Record<string, unknown>): PermissionAsk | undefined {
  if (c.patterns.size === 0) return undefined
  const noAlways = c.noAlways || c.forceAsk
  return {
    permission,
    patterns: [...c.patterns],
    always: noAlways ? [] : [...c.always],
    title,
    metadata,
    ...(c.forceAsk ? { forceAsk: true } : {}),
    ...(c.readOnly.size > 0 ? { readOnly: [...c.readOnly].filter((p) => !c.mixed.has(p)) } : {}),
  }
}

interface Buckets {
  external: Collected
  reads: Collected
  /** Files recursive readers reach in the folders they walk (an ask of its own: it may be long). */
  walked: Collected
  writes: Collected
}

/**
 * Everything a bash command line needs permission for, as asks in the order they
 * should be put: outside-project directories, reads (redirects and the files of
 * known readers such as `cat`), writes through redirects, then the commands. A
 * line the analysis does not fully understand, or a command whose name is only
 * known at run time, makes the `bash` ask a forced one: deny rules still deny it,
 * but no allow rule or remembered approval can answer it, and no "always" is
 * offered. A line with no command at all is still a `bash` ask for its text.
 */
export async function bashPermissionAsks(command: string, root: string, cwd: string): Promise<PermissionAsk[]> {
  return bashAsksOf(command, await analyzeShell(command, cwd), root)
}

/** The asks of `bashPermissionAsks` from an analysis of `command` already made (see `analyzeShell`). */
export function bashAsksOf(command: string, analysis: ShellAnalysis, root: string): PermissionAsk[] {
  const metadata: Record<string, unknown> = analysis.ok ? { command } : { command, reason: analysis.reason }
  const buckets: Buckets = { external: collector(), reads: collector(), walked: collector(), writes: collector() }
  let realRoot: string | undefined
  const rootReal = (): string => (realRoot ??= canonicalRoot(root))
  for (const path of analysis.paths) classifyPath(path, root, buckets, rootReal)
  const bash = collector()
  for (const cmd of analysis.commands) {
    if (cdStaysInside(cmd, root)) continue
    // `/bin/rm x` is also checked as `rm x`, so a rule about `rm` holds whatever path names it.
    const byName = commandByName(cmd)
    for (const pattern of byName ? [cmd.text, byName] : [cmd.text]) {
      bash.patterns.add(pattern)
      if (cmd.readOnly) bash.readOnly.add(pattern)
      else bash.mixed.add(pattern)
    }
    if (cmd.computed) bash.forceAsk = true
    if (cmd.always) bash.always.add(cmd.always)
  }
  if (!analysis.ok) {
    bash.patterns.add(command)
    bash.forceAsk = true
  } else if (analysis.commands.length === 0) {
    // Assignments, `[[ … ]]`, `(( … ))` or nothing: still the user's (or a rule's) call, never a silent pass.
    bash.patterns.add(command)
    bash.noAlways = true
  }
  return [
    toAsk(Permission.ExternalDirectory, `Access outside the project: ${command}`, buckets.external, metadata),
    toAsk(Permission.Read, `Read through the shell: ${command}`, buckets.reads, metadata),
    toAsk(Permission.Read, `Read recursively through the shell: ${command}`, buckets.walked, { ...metadata, recursive: true }),
    toAsk(Permission.Edit, `Write through a redirect: ${command}`, buckets.writes, metadata),
    toAsk(Permission.Bash, command, bash, metadata),
  ].filter((a): a is PermissionAsk => a !== undefined)
}

/** The command line with a path-named program (`/usr/bin/rm`, `./tool`) given by its file name alone. */
function commandByName(cmd: AnalyzedCommand): string | undefined {
  if (cmd.computed) return undefined
  const index = cmd.argv.findIndex((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word))
  const program = cmd.argv[index]
  if (program === undefined || !program.includes('/')) return undefined
  const name = program.slice(program.lastIndexOf('/') + 1)
  if (name === '') return undefined
  return [...cmd.argv.slice(0, index), name, ...cmd.argv.slice(index + 1)].join(' ')
}

/** `cd` into a folder of the project changes nothing by itself: no `bash` ask for it. */
function cdStaysInside(cmd: AnalyzedCommand, root: string): boolean {
  const targets = cmd.cdTargets
  if (!targets || targets.length === 0 || (cmd.argv.length > 2 && cmd.argv[1] !== '--')) return false
  return targets.every((t) => t.expanded !== null && t.expanded.every((abs) => resolveToolPath(root, abs).inside))
}

function classifyPath(entry: AnalyzedPath, root: string, into: Buckets, rootReal: () => string): void {
  const reads = entry.recursive ? into.walked : into.reads
  const byAccess = entry.access === 'write' ? into.writes : entry.access === 'read' ? reads : undefined
  if (entry.expanded === null) {
    // Computed (`$PWD-x/y`, `$(…)`, a variable) or relative after a computed `cd`: it may lead anywhere.
    if (!entry.found) {
      into.external.patterns.add(entry.raw)
      into.external.noAlways = true
    }
    if (byAccess) {
      byAccess.patterns.add(entry.raw)
      byAccess.forceAsk = true
    }
    return
  }
  const realRoot = entry.recursive ? rootReal() : ''
  for (const abs of entry.expanded) {
    if (HARMLESS_DEVICES.test(abs)) continue
    // A walked file is already a real path: no need to resolve it component by component again.
    const resolved = entry.recursive && abs.startsWith(`${realRoot}/`)
      ? { abs, inside: true, rel: abs.slice(realRoot.length + 1) }
      : resolveToolPath(root, abs)
    if (!resolved.inside) {
      const pattern = externalPattern(resolved.abs, isDirectory(resolved.abs))
      into.external.patterns.add(pattern)
      into.external.always.add(pattern)
      if (entry.access === 'read') addRead(reads, resolved.abs)
      continue
    }
    if (!byAccess) continue
    byAccess.patterns.add(resolved.rel)
    byAccess.always.add(entry.access === 'write' ? '*' : resolved.rel)
  }
}

/** Outside reads are also checked as reads, so a `read` deny of an outside path holds through bash. */
function addRead(reads: Collected, abs: string): void {
  reads.patterns.add(abs)
  reads.always.add(abs)
}
