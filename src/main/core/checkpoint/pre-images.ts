import { lstat, readFile } from 'node:fs/promises'
import { isAbsolute, relative } from 'node:path'
import type { PreImage } from '../snapshot'

/** A pre-image larger than this is not held in memory: the write waits for the checkpoint instead. */
export const MAX_PRE_IMAGE_BYTES = 4 * 1024 * 1024

/**
 * Pre-images kept for one checkpoint still being taken: for every path a tool wrote meanwhile,
 * what it held before the first such write. The checkpoint's snapshot is the walk's result with
 * these paths put back (`SnapshotClient.withPreImages`).
 */
export class PendingCapture {
  private readonly images = new Map<string, PreImage>()
  private closed = false

  /** Whether `path` still needs its pre-image here. */
  wants(path: string): boolean {
    return !this.closed && !this.images.has(path)
  }

  /** Keeps `image` unless an earlier write of the same path already left one (that one is older). */
  keep(image: PreImage): void {
    if (this.wants(image.path)) this.images.set(image.path, image)
  }

  /** Ends collection (the walk is done) and hands over what was kept. */
  close(): PreImage[] {
    this.closed = true
    return [...this.images.values()]
  }
}

/** Whether `path` (absolute) lies inside `root`: only those belong to the project's snapshots. */
export function insideRoot(root: string, path: string): boolean {
  const rel = relative(root, path)
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)
}

/**
 * What `path` holds now, as a pre-image: its content and exec bit, or absent. `undefined` when it
 * cannot stand in for the file (a link, a folder, something too large): the caller waits instead.
 */
export async function readPreImage(path: string): Promise<PreImage | undefined> {
  const stats = await lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return null
    throw error
  })
  if (stats === null) return { path, content: null }
  if (!stats.isFile() || stats.size > MAX_PRE_IMAGE_BYTES) return undefined
  const data = await readFile(path)
  if (data.length > MAX_PRE_IMAGE_BYTES) return undefined
  return { path, content: { data, exec: (stats.mode & 0o100) !== 0 } }
}
