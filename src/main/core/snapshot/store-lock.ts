import { closeSync, lstatSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { errnoCode, SnapshotErrorNames, snapshotError } from './errors'

/** A lock file younger than this with unreadable content may be mid-write by its owner. */
const UNREADABLE_GRACE_MS = 10_000

/** Depth of the locks this process holds, by lock path: operations nest (a restore takes a snapshot). */
const held = new Map<string, number>()

interface LockOwner {
  pid: number
  host: string
}

/**
 * Cross-process lock of a store (the app and the CLI may open the same project). Within a
 * process, operations are synchronous and cannot interleave, so the lock is re-entrant. A
 * lock left by a dead process on this host is taken over. Returns the release function.
 */
export function acquireStoreLock(storeDir: string): () => void {
  const path = join(storeDir, 'lock')
  const depth = held.get(path) ?? 0
  if (depth > 0) {
    held.set(path, depth + 1)
    return once(() => release(path))
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o644)
      try {
        writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname() } satisfies LockOwner))
      } catch (error) {
        // A full disk creates the file but not its content: an empty lock left behind would read as
        // "being written" by someone else for every later operation, hiding the real failure.
        closeSync(fd)
        unlinkSync(path)
        throw error
      }
      closeSync(fd)
      held.set(path, 1)
      return once(() => release(path))
    } catch (error) {
      if (errnoCode(error) !== 'EEXIST') throw error
    }
    const owner = readOwner(path)
    if (owner === 'unknown') throw busy(storeDir, 'another process (lock being written)')
    if (owner !== null && owner.host === hostname() && owner.pid === process.pid) {
      // Left by this very process (an abandoned operation): ours to reuse.
      held.set(path, 1)
      return once(() => release(path))
    }
    if (owner !== null && (owner.host !== hostname() || isAlive(owner.pid))) {
      throw busy(storeDir, `process ${owner.pid} on ${owner.host}`)
    }
    try {
      unlinkSync(path)
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT') throw error
    }
  }
  throw busy(storeDir, 'another process (lock contended)')
}

function release(path: string): void {
  const depth = held.get(path) ?? 0
  if (depth > 1) {
    held.set(path, depth - 1)
    return
  }
  held.delete(path)
  try {
    unlinkSync(path)
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error
  }
}

/** The lock's owner; null when the file is gone or stale garbage; 'unknown' when too fresh to judge. */
function readOwner(path: string): LockOwner | null | 'unknown' {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null
    throw error
  }
  try {
    const owner = JSON.parse(text) as Partial<LockOwner>
    if (typeof owner.pid === 'number' && typeof owner.host === 'string') return { pid: owner.pid, host: owner.host }
  } catch {
    // Unparsable: judged by age below.
  }
  try {
    return Date.now() - lstatSync(path).mtimeMs > UNREADABLE_GRACE_MS ? null : 'unknown'
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null
    throw error
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return errnoCode(error) === 'EPERM'
  }
}

function busy(storeDir: string, who: string) {
  return snapshotError(SnapshotErrorNames.Busy, `snapshot store ${storeDir} is in use by ${who}`, { storeDir })
}

function once(fn: () => void): () => void {
  let done = false
  return () => {
    if (done) return
    done = true
    fn()
  }
}
