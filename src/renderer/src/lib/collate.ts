import type { DirEntry } from '@shared/schema/fs'

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' })

export function isDirEntry(entry: DirEntry): boolean {
  return entry.kind === 'dir' || entry.targetKind === 'dir'
}

/** The order the core lists a folder in: folders first, then natural name order. */
export function compareEntries(a: DirEntry, b: DirEntry): number {
  const ad = isDirEntry(a)
  const bd = isDirEntry(b)
  if (ad !== bd) return ad ? -1 : 1
  return collator.compare(a.name, b.name)
}

/** Inserts or replaces `entry` in a sorted listing, returning a new array. */
export function upsertEntry(entries: readonly DirEntry[], entry: DirEntry): DirEntry[] {
  const without = entries.filter((e) => e.name !== entry.name)
  let lo = 0
  let hi = without.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (compareEntries(without[mid] as DirEntry, entry) < 0) lo = mid + 1
    else hi = mid
  }
  without.splice(lo, 0, entry)
  return without
}
