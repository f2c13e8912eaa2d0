/**
 * "The connection came back": events may have been missed while it was down, so
 * whoever mirrors server state (file tree, git status, terminals) fetches it again.
 */
const listeners = new Set<() => void>()

export function onResync(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export function emitResync(): void {
  for (const listener of [...listeners]) listener()
}
