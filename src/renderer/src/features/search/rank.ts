import fuzzysort from 'fuzzysort'

export interface RankedFile {
  path: string
  /** Matched character positions in `path`, for highlighting. */
  indexes: readonly number[]
  recent: boolean
}

/** How much a recently shown file is preferred over an equally good match. */
const RECENT_BONUS = 0.15

/**
 * Quick Open's list: without a query, recent files first, then the rest by
 * path; with one, fuzzy matches on the path (the file name weighs most, as
 * fuzzysort scores word starts and contiguous runs), recent files lifted.
 */
export function rankFiles(query: string, files: readonly string[], recent: readonly string[], limit = 50): RankedFile[] {
  const known = new Set(files)
  const recents = recent.filter((p) => known.has(p))
  const recentRank = new Map(recents.map((p, i) => [p, i]))
  const q = query.trim()
  if (!q) {
    const rest = files.filter((p) => !recentRank.has(p))
    return [...recents, ...rest].slice(0, limit).map((path) => ({ path, indexes: [], recent: recentRank.has(path) }))
  }
  const results = fuzzysort.go(q, files, { limit: limit * 4, threshold: 0.2 })
  return results
    .map((r) => {
      const rank = recentRank.get(r.target)
      const bonus = rank === undefined ? 0 : RECENT_BONUS * (1 - rank / Math.max(1, recents.length))
      // A match inside the file name beats the same letters spread over folders.
      const nameStart = r.target.lastIndexOf('/') + 1
      const inName = r.indexes.length > 0 && r.indexes[0] !== undefined && r.indexes[0] >= nameStart ? 0.05 : 0
      return { path: r.target, indexes: r.indexes, recent: rank !== undefined, score: r.score + bonus + inName }
    })
    .sort((a, b) => b.score - a.score || a.path.length - b.path.length)
    .slice(0, limit)
    .map(({ path, indexes, recent: isRecent }) => ({ path, indexes, recent: isRecent }))
}
