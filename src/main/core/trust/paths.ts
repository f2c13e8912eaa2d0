import { relative, isAbsolute } from 'node:path'

/** Whether `path` is `folder` itself or below it (both canonical). */
export function isInside(folder: string, path: string): boolean {
  const rel = relative(folder, path)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
}
