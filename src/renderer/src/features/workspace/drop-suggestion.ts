import type { RecentProject } from '@shared/schema/project'

/** The folder's last path component (either separator: recent projects may come from Windows). */
function baseName(path: string): string {
  return path.replace(/[\\/]+$/, '').split(/[\\/]/).pop() ?? path
}

/**
 * The recent project a dropped folder most likely is, by name: a browser tells the page
 * the name of a dropped folder but never where it lives. Projects still on disk only,
 * the most recently opened first.
 */
export function recentProjectNamed(recent: readonly RecentProject[], name: string): RecentProject | undefined {
  if (name === '') return undefined
  return [...recent].filter((r) => r.exists && baseName(r.root) === name).sort((a, b) => b.lastOpenedAt - a.lastOpenedAt)[0]
}

/** What the path dialog says and offers for a folder dropped in a browser. */
export function dropPathRequest(recent: readonly RecentProject[], name: string, isFile: boolean): { reason: string; initial: string } {
  const kind = isFile ? 'file' : 'folder'
  const match = isFile ? undefined : recentProjectNamed(recent, name)
  if (match) {
    return {
      reason: `Browsers do not tell a page where a dropped folder is. “${name}” has the name of a recent project, ${match.root}: open it, or enter the full path of the folder you dropped.`,
      initial: match.root,
    }
  }
  return { reason: `Browsers do not tell a page where a dropped ${kind} is. Enter the full path of “${name}” to open it.`, initial: '' }
}
