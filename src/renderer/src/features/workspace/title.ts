import { baseName } from '../../lib/paths'

/** The window/tab title, as editors name it: "file — project — Hotaru" (less when no file or project is shown). */
export function windowTitle(project: string | null, file: string | null, dirty = false): string {
  const parts = [file ? `${dirty ? '● ' : ''}${baseName(file)}` : null, project, 'Hotaru'].filter((p): p is string => p !== null && p !== '')
  return parts.join(' — ')
}
