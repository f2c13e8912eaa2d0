import { mkdirSync, statSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import { ErrorNames, HotaruError } from '@shared/errors'

/**
 * The project folder is an anchor: writes create missing folders below it, never the folder
 * itself or its ancestors. A project deleted, renamed or unmounted while open would otherwise come
 * back as a phantom holding the one file the agent or the editor wrote.
 */
export function projectMissing(root: string): HotaruError {
  return new HotaruError(ErrorNames.ProjectMissing, {
    message: `The project folder ${root} no longer exists (deleted, renamed or unmounted); nothing was written. Put the folder back or open it where it is now, then try again.`,
    path: root,
  })
}

export function isProjectMissing(error: unknown): error is HotaruError {
  return error instanceof HotaruError && error.name === ErrorNames.ProjectMissing
}

export function assertRootExists(root: string): void {
  try {
    if (statSync(root).isDirectory()) return
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error
  }
  throw projectMissing(root)
}

/** The folders from `root` (excluded) down to `dir`, or null when `dir` is not below `root`. */
function foldersBelow(root: string, dir: string): string[] | null {
  const rel = relative(root, dir)
  if (rel === '') return []
  if (rel === '..' || rel.startsWith(`..${sep}`)) return null
  const out: string[] = []
  let current = root
  for (const part of rel.split(sep)) {
    current = join(current, part)
    out.push(current)
  }
  return out
}

function tolerateExisting(root: string, error: unknown): void {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'EEXIST') return
  if (code === 'ENOENT') throw projectMissing(root)
  throw error
}

/** Creates `dir`'s missing folders below `root`, each with a plain mkdir: a vanished root fails instead of coming back. */
export async function makeFoldersBelow(root: string, dir: string): Promise<void> {
  const folders = foldersBelow(root, dir)
  if (folders === null) {
    await mkdir(dir, { recursive: true })
    return
  }
  for (const folder of folders) {
    try {
      await mkdir(folder)
    } catch (error) {
      tolerateExisting(root, error)
    }
  }
}

export function makeFoldersBelowSync(root: string, dir: string): void {
  const folders = foldersBelow(root, dir)
  if (folders === null) {
    mkdirSync(dir, { recursive: true })
    return
  }
  for (const folder of folders) {
    try {
      mkdirSync(folder)
    } catch (error) {
      tolerateExisting(root, error)
    }
  }
}
