/** How many identical calls in a row count as a loop. */
export const DOOM_LOOP_THRESHOLD = 3

/** JSON with sorted object keys, so `{a,b}` and `{b,a}` compare equal. */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined'
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`
}

/**
 * Spots a model repeating itself: the same tool with identical input several times
 * in a row within a session. One tracker per session (or one shared: keys include
 * the session id).
 */
export class DoomLoopTracker {
  private readonly recent = new Map<string, { key: string; count: number }>()

  /** Records a call; returns true when it makes `DOOM_LOOP_THRESHOLD` identical calls in a row. */
  record(sessionId: string, tool: string, input: unknown): boolean {
    const key = `${tool}\u0000${stableStringify(input)}`
    const last = this.recent.get(sessionId)
    const count = last?.key === key ? last.count + 1 : 1
    this.recent.set(sessionId, { key, count })
    return count >= DOOM_LOOP_THRESHOLD
  }

  reset(sessionId: string): void {
    this.recent.delete(sessionId)
  }
}
