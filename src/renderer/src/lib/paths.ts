/** Project-relative path helpers (paths use "/" and '' is the project root). */

export function parentOf(path: string): string {
  const i = path.lastIndexOf('/')
  return i < 0 ? '' : path.slice(0, i)
}

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1)
}

export function joinPath(dir: string, name: string): string {
  return dir ? `${dir}/${name}` : name
}

/** `path` itself or anything below it. */
export function isSameOrBelow(path: string, ancestor: string): boolean {
  return ancestor === '' || path === ancestor || path.startsWith(`${ancestor}/`)
}

/** '' , 'a', 'a/b' for 'a/b/c': the folders that must be expanded to show `path`. */
export function ancestorsOf(path: string): string[] {
  const parts = path.split('/')
  const out = ['']
  for (let i = 1; i < parts.length; i++) out.push(parts.slice(0, i).join('/'))
  return out
}

/** An absolute path from a project root and a relative path, in the root's own separator style. */
export function absolutePath(root: string, rel: string): string {
  if (!rel) return root
  const sep = root.includes('\\') && !root.includes('/') ? '\\' : '/'
  return `${root.replace(/[\\/]+$/, '')}${sep}${sep === '/' ? rel : rel.split('/').join(sep)}`
}

/** The project-relative form of an absolute path when it lies inside `root`, else null. */
export function relativeInside(root: string, abs: string): string | null {
  const norm = (p: string) => p.replace(/\\/g, '/').replace(/\/+$/, '')
  const r = norm(root)
  const a = norm(abs)
  if (a === r) return ''
  return a.startsWith(`${r}/`) ? a.slice(r.length + 1) : null
}

/** Folder of an absolute path (either separator). */
export function absoluteParent(abs: string): string {
  const trimmed = abs.replace(/[\\/]+$/, '')
  const i = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'))
  return i <= 0 ? trimmed.slice(0, i + 1) || trimmed : trimmed.slice(0, i)
}
