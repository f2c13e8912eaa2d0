import { countLineChanges, isBinary } from './line-diff'
import type { ObjectStore } from './object-store'
import { compareNames, sameEntry, type TreeChild } from './tree-codec'
import type { TreeReader } from './tree-reader'
import type { DiffEntry, ManifestEntry } from './types'

/** Files above this are not line-counted nor sent to the diff viewer (flagged instead). */
export const TEXT_DIFF_CAP_BYTES = 2 * 1024 * 1024

export interface RawChange {
  path: string
  old?: ManifestEntry
  new?: ManifestEntry
}

/**
 * Changed paths between two trees. Subtrees with equal hashes are skipped without being
 * read, so the cost follows the size of the change, not of the project.
 */
export function diffTrees(reader: TreeReader, oldRoot: string | null, newRoot: string | null): RawChange[] {
  const out: RawChange[] = []
  walk(reader, oldRoot, newRoot, '', out)
  out.sort((a, b) => compareNames(a.path, b.path))
  return out
}

function walk(reader: TreeReader, oldHash: string | null, newHash: string | null, prefix: string, out: RawChange[]) {
  if (oldHash === newHash) return
  const olds: readonly TreeChild[] = oldHash ? reader.read(oldHash) : []
  const news: readonly TreeChild[] = newHash ? reader.read(newHash) : []
  let i = 0
  let j = 0
  while (i < olds.length || j < news.length) {
    const a = olds[i]
    const b = news[j]
    const order = !a ? 1 : !b ? -1 : compareNames(a.name, b.name)
    const name = (order <= 0 ? a?.name : b?.name) as string
    const path = prefix === '' ? name : `${prefix}/${name}`
    if (order < 0 && a) {
      side(reader, a, path, 'old', out)
      i++
    } else if (order > 0 && b) {
      side(reader, b, path, 'new', out)
      j++
    } else if (a && b) {
      if (a.dir !== undefined && b.dir !== undefined) walk(reader, a.dir, b.dir, path, out)
      else if (a.dir !== undefined && b.dir === undefined) {
        walk(reader, a.dir, null, path, out)
        out.push({ path, new: b.entry })
      } else if (a.dir === undefined && b.dir !== undefined) {
        out.push({ path, old: a.entry })
        walk(reader, null, b.dir, path, out)
      } else if (a.dir === undefined && b.dir === undefined && !sameEntry(a.entry, b.entry)) {
        out.push({ path, old: a.entry, new: b.entry })
      }
      i++
      j++
    }
  }
}

function side(reader: TreeReader, child: TreeChild, path: string, which: 'old' | 'new', out: RawChange[]) {
  if (child.dir !== undefined) {
    if (which === 'old') walk(reader, child.dir, null, path, out)
    else walk(reader, null, child.dir, path, out)
  } else {
    out.push(which === 'old' ? { path, old: child.entry } : { path, new: child.entry })
  }
}

/** Turns raw changes into diff entries, with line counts for text files when asked. */
export function describeChanges(blobs: ObjectStore, changes: readonly RawChange[], lineCounts: boolean): DiffEntry[] {
  return changes.map((change) => {
    const { old: before, new: after } = change
    const status = !before ? 'added' : !after ? 'deleted' : 'modified'
    const entry: DiffEntry = { path: change.path, status, kind: (after ?? before)?.kind ?? 'file' }
    if (before && after && before.kind !== after.kind) entry.oldKind = before.kind
    if (before?.kind === 'file' && after?.kind === 'file' && before.hash === after.hash) {
      entry.modeOnly = true
      entry.additions = 0
      entry.deletions = 0
      return entry
    }
    if (before?.kind === 'untracked' || after?.kind === 'untracked') entry.untracked = true
    if (!lineCounts || entry.untracked) return entry
    const oldText = textOf(blobs, before, entry)
    const newText = textOf(blobs, after, entry)
    if (entry.binary || oldText === undefined || newText === undefined) return entry
    const counts = countLineChanges(oldText ?? '', newText ?? '')
    entry.additions = counts.additions
    entry.deletions = counts.deletions
    return entry
  })
}

/** Text of one side: '' for an absent side, undefined when not countable (binary flagged on `entry`). */
function textOf(blobs: ObjectStore, side: ManifestEntry | undefined, entry: DiffEntry): string | undefined {
  if (!side) return ''
  if (side.kind === 'symlink') return `${side.target}\n`
  if (side.kind !== 'file') return undefined
  if (side.size > TEXT_DIFF_CAP_BYTES) {
    entry.tooLarge = true
    return undefined
  }
  const data = blobs.get(side.hash)
  if (isBinary(data)) {
    entry.binary = true
    return undefined
  }
  return data.toString('utf8')
}
