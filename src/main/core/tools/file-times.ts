import { statSync } from 'node:fs'
import { ToolError } from './errors'

interface Stamp {
  mtimeNs: bigint
  size: bigint
}

function stampOf(abs: string): Stamp | undefined {
  try {
    const stats = statSync(abs, { bigint: true })
    return { mtimeNs: stats.mtimeNs, size: stats.size }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

/**
 * What a session has read, so edits can insist on a read first and refuse to
 * overwrite a file that changed on disk since (the model's view of it is stale).
 * One instance per session; paths are absolute and already symlink-resolved.
 */
export class FileTimes {
  private readonly stamps = new Map<string, Stamp>()

  /** After a read (or our own write): the model's view matches the file as it is now. */
  recordRead(abs: string): void {
    const stamp = stampOf(abs)
    if (stamp) this.stamps.set(abs, stamp)
    else this.stamps.delete(abs)
  }

  wasRead(abs: string): boolean {
    return this.stamps.has(abs)
  }

  /** Throws a "read it first" / "re-read it" error for the model when the file must not be edited blind. */
  assertCanEdit(abs: string, displayPath: string): void {
    const seen = this.stamps.get(abs)
    if (!seen) {
      throw new ToolError(
        `You must read "${displayPath}" with the read tool before editing it. Read it, then retry the edit.`,
        { path: displayPath, reason: 'not-read' },
      )
    }
    this.assertUnchanged(abs, displayPath)
  }

  /** Throws when a file the session read has changed on disk since. Files never read pass. */
  assertUnchanged(abs: string, displayPath: string): void {
    const seen = this.stamps.get(abs)
    if (!seen) return
    const now = stampOf(abs)
    if (!now || now.mtimeNs !== seen.mtimeNs || now.size !== seen.size) {
      throw new ToolError(
        `"${displayPath}" has been modified since you last read it (by the user or another process). ` +
          'Re-read it with the read tool, then make your edit against its current content.',
        { path: displayPath, reason: 'modified-since-read' },
      )
    }
  }

  forget(abs: string): void {
    this.stamps.delete(abs)
  }
}
