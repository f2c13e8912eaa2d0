import { sha256, type ObjectStore } from './object-store'
import { TreeState } from './tree-state'
import type { ManifestEntry, SnapshotId } from './types'

/** What one path held, project-relative: content and exec bit, or `null` when it was absent. */
export interface ScopedPath {
  path: string
  content: { data: Uint8Array; exec: boolean } | null
}

/** The signature of a record made from given content: it matches no file on disk, so the next walk reads the path. */
export const NO_SIGNATURE = { size: 0, mtimeNs: 0n, ctimeNs: 0n, ino: 0n, mode: 0 }

/**
 * The entry for content a tool's write replaced (or a scoped path holds): stored in `blobs` when it
 * fits the size cap, listed as too large otherwise. `written` is what the store reported for it.
 */
export function entryOfContent(content: { data: Uint8Array; exec: boolean }, blobs: ObjectStore, maxFileBytes: number): { entry: ManifestEntry; written: number } {
  const data = Buffer.from(content.data.buffer, content.data.byteOffset, content.data.byteLength)
  if (data.length > maxFileBytes) return { entry: { kind: 'untracked', reason: 'too-large', size: data.length }, written: 0 }
  const hash = sha256(data)
  return { entry: { kind: 'file', hash, size: data.length, exec: content.exec }, written: blobs.put(hash, data) }
}

/**
 * Stores a tree holding only `paths` (absent ones left out) and returns its id: a checkpoint that
 * covers only those paths (taken when the walk of the whole tree was stopped). The engine's own
 * view of the tree is not involved. Objects are written in one batch; a failure writes none.
 */
export function storeScopedTree(paths: readonly ScopedPath[], blobs: ObjectStore, trees: ObjectStore, maxFileBytes: number): SnapshotId {
  const tree = new TreeState()
  blobs.beginBatch()
  trees.beginBatch()
  try {
    for (const { path, content } of paths) {
      if (content) tree.set(path, { ...NO_SIGNATURE, entry: entryOfContent(content, blobs, maxFileBytes).entry })
    }
    const id = tree.buildRoot((hash, bytes) => {
      trees.put(hash, bytes)
    })
    blobs.flush()
    trees.flush()
    return id
  } catch (error) {
    blobs.discardBatch()
    trees.discardBatch()
    throw error
  }
}
