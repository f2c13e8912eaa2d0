import { lstatSync, readlinkSync, realpathSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path'
import { ErrorNames, HotaruError } from '@shared/errors'

/** True when `child` is `root` itself or lies below it (both absolute, normalized). */
export function isInside(root: string, child: string): boolean {
  const rel = relative(root, child)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
}

function outside(rel: string, reason: string): HotaruError {
  return new HotaruError(ErrorNames.OutsideWorkspace, { message: `"${rel}" is outside the project (${reason})`, path: rel })
}

const MAX_LINK_HOPS = 40

/** Where a symlink at `path` points, when `path` is a symlink (dangling or not). */
function danglingTarget(path: string): string | undefined {
  try {
    if (!lstatSync(path).isSymbolicLink()) return undefined
    return resolve(dirname(path), readlinkSync(path))
  } catch (error) {
    // Not there at all: the caller walks up to the parent.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

/**
 * Resolves a project-relative path to an absolute one and enforces the workspace
 * boundary *after* following symlinks: a link that leads out of the project is
 * refused. Paths that do not exist yet are checked through their nearest
 * existing ancestor, so creating a file under a symlinked-out directory is refused too.
 */
export function resolveInside(root: string, rel: string): string {
  if (isAbsolute(rel) || rel.split(/[\\/]/).includes('..')) throw outside(rel, 'not a relative path inside it')
  const lexical = join(root, rel)
  if (!isInside(root, lexical)) throw outside(rel, 'escapes the root')
  let probe = lexical
  let tail = ''
  let hops = 0
  for (;;) {
    try {
      const real = realpathSync(probe)
      const full = tail ? join(real, tail) : real
      if (!isInside(root, full)) throw outside(rel, 'a symlink leads out of it')
      return full
    } catch (error) {
      if (error instanceof HotaruError) throw error
      const code = (error as NodeJS.ErrnoException).code
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error
      // A dangling symlink: writing through it would create its target, so judge the target.
      const target = danglingTarget(probe)
      if (target !== undefined) {
        if (++hops > MAX_LINK_HOPS) throw outside(rel, 'too many symlinks')
        probe = target
        continue
      }
      const parent = dirname(probe)
      if (parent === probe) throw error
      tail = tail ? join(basename(probe), tail) : basename(probe)
      probe = parent
    }
  }
}
