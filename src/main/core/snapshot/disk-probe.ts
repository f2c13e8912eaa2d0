import { type BigIntStats, lstatSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { errnoCode } from './errors'
import type { DiskKind, DiskProbe } from './restore-plan'

export function lstatOrUndefined(abs: string): BigIntStats | undefined | 'notdir' {
  try {
    return lstatSync(abs, { bigint: true, throwIfNoEntry: false })
  } catch (error) {
    if (errnoCode(error) === 'ENOTDIR') return 'notdir'
    throw error
  }
}

/** Reads what is really on disk (ignored files and `.git` included) for the restore planner. */
export function diskProbe(root: string): DiskProbe {
  return {
    kind(path: string): DiskKind {
      const stats = lstatOrUndefined(join(root, path))
      if (stats === 'notdir') return 'notdir'
      if (!stats) return 'absent'
      if (stats.isDirectory()) return 'dir'
      if (stats.isSymbolicLink()) return 'symlink'
      if (stats.isFile()) return 'file'
      return 'other'
    },
    contents(dir: string) {
      const files: string[] = []
      let other = false
      const visit = (rel: string): void => {
        for (const dirent of readdirSync(join(root, rel), { withFileTypes: true })) {
          const path = `${rel}/${dirent.name}`
          if (dirent.name === '.git') other = true
          else if (dirent.isDirectory()) visit(path)
          else if (dirent.isFile() || dirent.isSymbolicLink()) files.push(path)
          else other = true
        }
      }
      visit(dir)
      return { files, other }
    },
  }
}
