import type { ObjectStore, StoredObject } from './object-store'
import type { TreeReader } from './tree-reader'
import type { GcResult, SnapshotId } from './types'

export interface GcOutcome extends GcResult {
  /** Blobs still referenced: stat index records naming any other blob must be dropped. */
  liveBlobs: ReadonlySet<string>
  remainingBlobs: StoredObject[]
  remainingTrees: StoredObject[]
}

/**
 * Mark and sweep: every tree and blob reachable from `roots` is kept, everything else is
 * deleted in place (see `ObjectStore.sweep` for packs). All roots are marked before anything
 * is deleted: a missing root throws and leaves the store as it was.
 */
export function collectGarbage(
  reader: TreeReader,
  trees: ObjectStore,
  blobs: ObjectStore,
  roots: Iterable<SnapshotId>,
): GcOutcome {
  const started = performance.now()
  const liveTrees = new Set<string>()
  const liveBlobs = new Set<string>()
  const mark = (hash: string): void => {
    if (liveTrees.has(hash)) return
    liveTrees.add(hash)
    for (const child of reader.read(hash)) {
      if (child.dir !== undefined) mark(child.dir)
      else if (child.entry.kind === 'file') liveBlobs.add(child.entry.hash)
    }
  }
  for (const root of roots) {
    reader.assertExists(root)
    mark(root)
  }
  const treeSweep = trees.sweep(liveTrees)
  const blobSweep = blobs.sweep(liveBlobs)
  return {
    blobsRemoved: blobSweep.removed,
    treesRemoved: treeSweep.removed,
    bytesFreed: blobSweep.bytesFreed + treeSweep.bytesFreed,
    blobsKept: blobSweep.kept.length,
    treesKept: treeSweep.kept.length,
    durationMs: performance.now() - started,
    liveBlobs,
    remainingBlobs: blobSweep.kept,
    remainingTrees: treeSweep.kept,
  }
}
