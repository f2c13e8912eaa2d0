import { statSync } from 'node:fs'
import { Permission } from '../names'
import { externalPattern, resolveToolPath } from '../paths'
import type { PermissionAsk } from '../service'
import { analyzeShell, type AnalyzedPath } from './analyze'

/** Device files a command may always read or write. */
const HARMLESS_DEVICES = /^\/dev\/(null|zero|stdin|stdout|stderr|tty|fd\/[0-9]+|u?random)$/

interface Collected {
  patterns: Set<string>
  always: Set<string>
  /** Something in it was computed: no "always" for this ask. */
  noAlways: boolean
}

function collector(): Collected {
  return { patterns: new Set(), always: new Set(), noAlways: false }
}

function toAsk(permission: string, title: string, c: Collected, metadata: Record<string, unknown>): PermissionAsk | undefined {
  if (c.patterns.size === 0) return undefined
  return { permission, patterns: [...c.patterns], always: c.noAlways ? [] : [...c.always], title, metadata }
}

function isDirectory(abs: string): boolean {
  try {
    return statSync(abs).isDirectory()
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return false
    throw error
  }
}

/**
 * Everything a bash command line needs permission for, as asks in the order they
 * should be put: outside-project directories, reads and writes through redirects,
 * then the commands themselves. A line that cannot be analyzed is one `bash` ask
 * for the whole text with no "always" option.
 */
export async function bashPermissionAsks(command: string, root: string, cwd: string): Promise<PermissionAsk[]> {
  const analysis = await analyzeShell(command, cwd)
  const metadata = { command }
  if (!analysis.ok) {
    return [{ permission: Permission.Bash, patterns: [command], always: [], title: command, metadata: { command, reason: analysis.reason } }]
  }
  const external = collector()
  const reads = collector()
  const writes = collector()
  for (const path of analysis.paths) classifyPath(path, root, { external, reads, writes })
  const bash = collector()
  for (const cmd of analysis.commands) {
    bash.patterns.add(cmd.text)
    if (cmd.computed) bash.noAlways = true
    if (cmd.always) bash.always.add(cmd.always)
  }
  return [
    toAsk(Permission.ExternalDirectory, `Access outside the project: ${command}`, external, metadata),
    toAsk(Permission.Read, `Read through a redirect: ${command}`, reads, metadata),
    toAsk(Permission.Edit, `Write through a redirect: ${command}`, writes, metadata),
    toAsk(Permission.Bash, command, bash, metadata),
  ].filter((a): a is PermissionAsk => a !== undefined)
}

function classifyPath(
  entry: AnalyzedPath,
  root: string,
  into: { external: Collected; reads: Collected; writes: Collected },
): void {
  const byAccess = entry.access === 'write' ? into.writes : entry.access === 'read' ? into.reads : undefined
  if (entry.path === null) {
    // A computed redirect target: nobody knows where it writes until it runs.
    if (byAccess) {
      byAccess.patterns.add(entry.raw)
      byAccess.noAlways = true
    }
    return
  }
  if (HARMLESS_DEVICES.test(entry.path)) return
  const absoluteLike = entry.path.startsWith('/') || entry.path.startsWith('~')
  if (entry.cwds === null && !absoluteLike) {
    // After a computed `cd` a relative path may lead anywhere.
    into.external.patterns.add(entry.raw)
    into.external.noAlways = true
    return
  }
  for (const cwd of entry.cwds ?? [root]) {
    const resolved = resolveToolPath(root, entry.path, cwd)
    if (!resolved.inside) {
      const pattern = externalPattern(resolved.abs, isDirectory(resolved.abs))
      into.external.patterns.add(pattern)
      into.external.always.add(pattern)
      continue
    }
    if (!byAccess) continue
    byAccess.patterns.add(resolved.rel)
    byAccess.always.add(entry.access === 'write' ? '*' : resolved.rel)
  }
}
