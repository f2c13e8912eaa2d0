import type { DirEntry } from '@shared/schema/fs'
import { isDirEntry } from '../../lib/collate'
import type { DirState } from '../../stores/project-tree'

export type TreeRowData =
  | { kind: 'entry'; entry: DirEntry; depth: number; isDir: boolean; expanded: boolean }
  | { kind: 'note'; key: string; depth: number; text: string; error: boolean }

/**
 * The visible rows of the tree, depth first: what the virtual list draws. O(rows)
 * per change, which stays in the low milliseconds even for 50k visible entries.
 */
export function flattenTree(dirs: Record<string, DirState>, expanded: Record<string, boolean>): TreeRowData[] {
  const rows: TreeRowData[] = []
  const visit = (path: string, depth: number): void => {
    const dir = dirs[path]
    if (!dir?.entries) {
      if (dir?.error) rows.push({ kind: 'note', key: `${path}:error`, depth, text: dir.error, error: true })
      else rows.push({ kind: 'note', key: `${path}:loading`, depth, text: 'Loading…', error: false })
      return
    }
    for (const entry of dir.entries) {
      const isDir = isDirEntry(entry)
      const open = isDir && expanded[entry.path] === true
      rows.push({ kind: 'entry', entry, depth, isDir, expanded: open })
      if (open) visit(entry.path, depth + 1)
    }
  }
  visit('', 0)
  return rows
}
