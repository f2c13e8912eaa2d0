import { lstatSync, readlinkSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, isAbsolute, join, relative, sep } from 'node:path'
import { isInside } from '../project/boundary'

/** Where a path a tool was given really leads. */
export interface ResolvedPath {
  /** Absolute, `..`-free, with every existing symlink on the way (leaf included) followed. */
  abs: string
  /** True when `abs` is the project root or below it. */
  inside: boolean
  /** `/`-separated path relative to the root when inside; the absolute path otherwise. Used as rule pattern. */
  rel: string
}

const MAX_LINKS = 40

/** `~` and `~/x` become the home directory; other paths are returned unchanged. */
export function expandHome(path: string): string {
  if (path === '~') return homedir()
  if (path.startsWith('~/')) return join(homedir(), path.slice(2))
  return path
}

function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code
}

/**
 * Resolves `path` physically, as the kernel would: component by component, following
 * every symlink (leaf included, dangling ones too) and applying `..` to the real
 * parent. So `link/../x` where `link` leads elsewhere resolves next to the link's
 * target, and a link pointing out of the project is seen as outside even when its
 * target does not exist yet. Missing components are appended as written.
 */
export function realPathOf(path: string): string {
  const pending = resolveLexicalRoot(path)
  let current = '/'
  let hops = 0
  let missing = false
  while (pending.length > 0) {
    const part = pending.shift() as string
    if (part === '' || part === '.') continue
    if (part === '..') {
      current = dirname(current)
      continue
    }
    const next = join(current, part)
    if (missing) {
      current = next
      continue
    }
    let target: string | undefined
    try {
      const stats = lstatSync(next)
      if (stats.isSymbolicLink()) target = readlinkSync(next)
    } catch (error) {
      const code = errnoCode(error)
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error
      missing = true
    }
    if (target === undefined) {
      current = next
      continue
    }
    if (++hops > MAX_LINKS) return join(next, ...pending) // a loop: callers see a path that does not exist
    pending.unshift(...target.split('/'))
    if (isAbsolute(target)) current = '/'
  }
  return current
}

/** The components of an absolute path, without normalizing `..` (that needs the real parent). */
function resolveLexicalRoot(path: string): string[] {
  if (!isAbsolute(path)) throw new Error(`expected an absolute path, got "${path}"`)
  return path.split(sep)
}

/** Canonical project root (callers may pass one that is itself reached through a symlink). */
export function canonicalRoot(root: string): string {
  return realPathOf(root)
}

/**
 * Resolves a path given to a tool, absolute or relative to `cwd` (the project root by
 * default), and places it inside or outside the project after following symlinks.
 */
export function resolveToolPath(root: string, path: string, cwd: string = root): ResolvedPath {
  const realRoot = canonicalRoot(root)
  const expanded = expandHome(path)
  // No lexical `..` folding here: `link/..` must go to the link target's parent.
  const joined = isAbsolute(expanded) ? expanded : `${cwd}${sep}${expanded}`
  const abs = realPathOf(joined)
  const inside = isInside(realRoot, abs)
  const rel = inside ? relative(realRoot, abs).split(sep).join('/') : abs
  return { abs, inside, rel }
}

/** The `external_directory` pattern for an outside path: its directory (itself when it is one) plus `/*`. */
export function externalPattern(abs: string, isDirectory: boolean): string {
  const dir = isDirectory ? abs : dirname(abs)
  return dir === '/' ? '/*' : `${dir}/*`
}
