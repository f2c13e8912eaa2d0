import { lstatSync, readdirSync, statSync, type Stats } from 'node:fs'
import { join } from 'node:path'
import { ErrorNames, HotaruError } from '@shared/errors'
import type { DirEntry, DirListing, FileContent } from '@shared/schema/fs'
import { isInside, resolveInside } from './boundary'
import type { IgnoreRules } from './ignore-rules'
import { assertNotSpecial, readRegularHead } from '../util/regular-file'

/** Files larger than this are returned truncated (the editor shows a notice). */
export const READ_CAP_BYTES = 5 * 1024 * 1024

// Built on first use: creating a collator loads the locale's ICU data (milliseconds), which a
// process that never lists a folder (a `hotaru run`) should not pay at start.
let collator: Intl.Collator | undefined
function nameCollator(): Intl.Collator {
  collator ??= new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' })
  return collator
}

function kindOf(stats: Stats): DirEntry['kind'] {
  if (stats.isSymbolicLink()) return 'symlink'
  if (stats.isDirectory()) return 'dir'
  if (stats.isFile()) return 'file'
  return 'other'
}

export function fsError(rel: string, error: unknown): HotaruError {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'ENOENT') return new HotaruError(ErrorNames.NotFound, { message: `"${rel}" does not exist`, path: rel })
  if (code === 'ENOTDIR')
    return new HotaruError(ErrorNames.NotADirectory, { message: `"${rel}" is not a directory`, path: rel })
  return new HotaruError(ErrorNames.Internal, { message: `cannot access "${rel}": ${(error as Error).message}`, path: rel })
}

/** One directory level, ignore-aware, directories first then natural name order. */
export function listDirectory(root: string, rel: string, rules: IgnoreRules): DirListing {
  const abs = resolveInside(root, rel)
  let names: string[]
  try {
    names = readdirSync(abs)
  } catch (error) {
    throw fsError(rel, error)
  }
  const entries: DirEntry[] = []
  for (const name of names) {
    if (name === '.git') continue
    let stats: Stats
    try {
      stats = lstatSync(join(abs, name))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue // vanished between readdir and lstat
      throw fsError(rel ? `${rel}/${name}` : name, error)
    }
    entries.push(describeEntry(root, rel ? `${rel}/${name}` : name, join(abs, name), stats, rules))
  }
  entries.sort((a, b) => {
    const ad = a.kind === 'dir' || a.targetKind === 'dir'
    const bd = b.kind === 'dir' || b.targetKind === 'dir'
    if (ad !== bd) return ad ? -1 : 1
    return nameCollator().compare(a.name, b.name)
  })
  return { path: rel, entries }
}

/** The tree entry for one path whose lstat is known (`abs` is the link itself for symlinks). */
export function describeEntry(root: string, rel: string, abs: string, stats: Stats, rules: IgnoreRules): DirEntry {
  const kind = kindOf(stats)
  const entry: DirEntry = {
    name: rel.slice(rel.lastIndexOf('/') + 1),
    path: rel,
    kind,
    size: stats.size,
    mtimeMs: stats.mtimeMs,
    ignored: false,
  }
  if (kind === 'symlink') {
    const targetKind = symlinkTargetKind(root, abs)
    if (targetKind) entry.targetKind = targetKind
  }
  entry.ignored = rules.isIgnored(rel, kind === 'dir' || entry.targetKind === 'dir')
  return entry
}

function symlinkTargetKind(root: string, linkAbs: string): DirEntry['kind'] | undefined {
  try {
    const real = resolveInside(root, linkAbs.slice(root.length + 1))
    if (!isInside(root, real)) return undefined
    return kindOf(statSync(real))
  } catch {
    return undefined // dangling or leads outside: shown as a plain link
  }
}

/**
 * The start of a file for the editor (up to `cap`). FIFOs, sockets and devices are refused before they are
 * opened, and the read is asynchronous: no file can hold the server's event loop.
 */
export async function readFile(root: string, rel: string, cap = READ_CAP_BYTES): Promise<FileContent> {
  const abs = resolveInside(root, rel)
  let stats: Stats
  try {
    stats = statSync(abs)
  } catch (error) {
    throw fsError(rel, error)
  }
  if (stats.isDirectory())
    throw new HotaruError(ErrorNames.InvalidPayload, { message: `"${rel}" is a directory`, path: rel })
  assertNotSpecial(stats, rel)
  let read: { buffer: Buffer; stats: Stats }
  try {
    read = await readRegularHead(abs, rel, cap)
  } catch (error) {
    throw error instanceof HotaruError ? error : fsError(rel, error)
  }
  const { buffer } = read
  const binary = looksBinary(buffer)
  return {
    path: rel,
    size: read.stats.size,
    binary,
    truncated: read.stats.size > cap,
    content: binary ? '' : buffer.toString('utf8'),
    mtimeMs: read.stats.mtimeMs,
  }
}

/** Git's heuristic: a NUL byte in the first 8000 bytes means binary. */
export function looksBinary(buffer: Buffer): boolean {
  return buffer.subarray(0, 8000).includes(0)
}
