import { posix } from 'node:path'
import type { SideChange } from './three-way'

/**
 * Pairs deleted files with added files of identical content into renames (`from` → `path`,
 * similarity 100), the way git finds exact renames. `keyOf` gives a change's content key (equal
 * keys mean equal content and kind: a link never pairs with a file); null when it is not known,
 * and such a file is never paired. Among several candidates of the same content, a file keeps
 * its basename first (git's preference: `a/x.ts` → `b/x.ts` before `b/y.ts`), then goes in path
 * order. Everything else is returned as it was; the result is sorted by path.
 */
export function pairExactRenames(changes: readonly SideChange[], keyOf: (change: SideChange) => string | null): SideChange[] {
  const deleted = new Map<string, SideChange[]>()
  for (const change of changes) {
    if (change.status !== 'deleted') continue
    const key = keyOf(change)
    if (key === null) continue
    const group = deleted.get(key)
    if (group) group.push(change)
    else deleted.set(key, [change])
  }
  if (deleted.size === 0) return [...changes]
  const addedByKey = new Map<string, SideChange[]>()
  for (const change of changes) {
    if (change.status !== 'added' || change.from !== undefined) continue
    const key = keyOf(change)
    if (key === null || !deleted.has(key)) continue
    const group = addedByKey.get(key)
    if (group) group.push(change)
    else addedByKey.set(key, [change])
  }
  /** New path → old path. */
  const renamedFrom = new Map<string, string>()
  const paired = new Set<string>()
  for (const [key, adds] of addedByKey) {
    const dels = deleted.get(key) ?? []
    pairGroup(byPath(dels), byPath(adds), renamedFrom, paired)
  }
  return changes
    .filter((change) => !paired.has(change.path) || change.status !== 'deleted')
    .map((change) => {
      const from = change.status === 'added' ? renamedFrom.get(change.path) : undefined
      return from === undefined ? change : { ...change, from, similarity: 100 }
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
}

function byPath(changes: SideChange[]): SideChange[] {
  return [...changes].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
}

/** Same basename first, then the rest in path order; every file is used at most once. */
function pairGroup(dels: SideChange[], adds: SideChange[], renamedFrom: Map<string, string>, paired: Set<string>): void {
  const free = new Set(dels.map((d) => d.path))
  const pending: SideChange[] = []
  for (const add of adds) {
    const match = dels.find((d) => free.has(d.path) && posix.basename(d.path) === posix.basename(add.path))
    if (!match) {
      pending.push(add)
      continue
    }
    free.delete(match.path)
    paired.add(match.path)
    renamedFrom.set(add.path, match.path)
  }
  const rest = dels.filter((d) => free.has(d.path))
  for (const [i, add] of pending.entries()) {
    const match = rest[i]
    if (!match) break
    paired.add(match.path)
    renamedFrom.set(add.path, match.path)
  }
}
