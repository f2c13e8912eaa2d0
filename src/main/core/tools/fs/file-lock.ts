import { isAbsolute, resolve } from 'node:path'
import { expandHome } from '../../permission/paths'

/** The tail of each file's queue: a call waits for the one before it, then holds the file. */
const queues = new Map<string, Promise<void>>()

function acquire(key: string): Promise<() => void> {
  const previous = queues.get(key) ?? Promise.resolve()
  let release = (): void => undefined
  const held = new Promise<void>((done) => {
    release = done
  })
  const tail = previous.then(() => held)
  queues.set(key, tail)
  return previous.then(() => () => {
    release()
    if (queues.get(key) === tail) queues.delete(key)
  })
}

/**
 * Runs `task` while holding every file in `paths`: calls that change the same file
 * (the loop runs one step's calls concurrently) run one after the other, and the
 * later one reads what the earlier one wrote. Files are taken in sorted order so two
 * calls that share several files cannot wait on each other.
 */
export async function withFileLocks<T>(paths: readonly string[], task: () => Promise<T>): Promise<T> {
  const keys = [...new Set(paths)].sort()
  const releases: Array<() => void> = []
  try {
    for (const key of keys) releases.push(await acquire(key))
    return await task()
  } finally {
    for (const release of releases.reverse()) release()
  }
}

/** The lock key of a path a tool was given: absolute, without following links (enough to queue one file's calls). */
export function lockKey(root: string, path: string): string {
  const expanded = expandHome(path)
  return isAbsolute(expanded) ? resolve(expanded) : resolve(root, expanded)
}
