/**
 * Line statistics for the change summary (`+a −d` per file), without a diff dependency:
 * the Myers O(ND) greedy algorithm gives the length D of the shortest edit script, from
 * which additions and deletions follow. Big, very different files fall back to a multiset
 * count (lines present on one side only), which is what a reviewer would see as changed
 * anyway and keeps a checkpoint summary from costing seconds.
 */

/** Git's heuristic: a NUL byte in the first 8000 bytes means binary. */
export function isBinary(data: Uint8Array): boolean {
  const end = Math.min(data.length, 8000)
  for (let i = 0; i < end; i++) if (data[i] === 0) return true
  return false
}

/** Lines of a text; a missing final newline makes the last line differ from the same line with one (as in git). */
export function splitLines(text: string): string[] {
  if (text === '') return []
  const lines = text.split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  else lines[lines.length - 1] += '\n\\ No newline at end of file'
  return lines
}

export interface LineCounts {
  additions: number
  deletions: number
}

/** Bound on Myers work (cells of the edit graph explored) before falling back to the multiset count. */
const MAX_WORK = 20_000_000

export function countLineChanges(oldText: string, newText: string): LineCounts {
  const a = splitLines(oldText)
  const b = splitLines(newText)
  // Common prefix and suffix cost nothing and are the usual case for edits.
  let start = 0
  while (start < a.length && start < b.length && a[start] === b[start]) start++
  let endA = a.length
  let endB = b.length
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--
    endB--
  }
  const n = endA - start
  const m = endB - start
  if (n === 0 || m === 0) return { additions: m, deletions: n }
  const ids = new Map<string, number>()
  const idOf = (line: string): number => {
    let id = ids.get(line)
    if (id === undefined) {
      id = ids.size
      ids.set(line, id)
    }
    return id
  }
  const xs = Int32Array.from(a.slice(start, endA), idOf)
  const ys = Int32Array.from(b.slice(start, endB), idOf)
  const d = editDistance(xs, ys, Math.max(1, Math.floor(MAX_WORK / (n + m))))
  if (d === null) return multisetCounts(xs, ys)
  return { additions: (d + m - n) / 2, deletions: (d - m + n) / 2 }
}

/** Length of the shortest insert/delete script from `a` to `b`, or null past `maxD`. */
function editDistance(a: Int32Array, b: Int32Array, maxD: number): number | null {
  const n = a.length
  const m = b.length
  const offset = n + m + 1
  const v = new Int32Array(2 * offset + 1)
  for (let d = 0; d <= Math.min(maxD, n + m); d++) {
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number))
        ? (v[offset + k + 1] as number)
        : (v[offset + k - 1] as number) + 1
      let y = x - k
      while (x < n && y < m && a[x] === b[y]) {
        x++
        y++
      }
      v[offset + k] = x
      if (x >= n && y >= m) return d
    }
  }
  return null
}

function multisetCounts(a: Int32Array, b: Int32Array): LineCounts {
  const pool = new Map<number, number>()
  for (const id of a) pool.set(id, (pool.get(id) ?? 0) + 1)
  let additions = 0
  for (const id of b) {
    const left = pool.get(id) ?? 0
    if (left > 0) pool.set(id, left - 1)
    else additions++
  }
  let deletions = 0
  for (const left of pool.values()) deletions += left
  return { additions, deletions }
}
