import { ErrorNames, HotaruError } from '@shared/errors'
import type { ObjectStore } from './object-store'
import { decodeTree, type TreeChild } from './tree-codec'
import type { ManifestEntry, SnapshotId } from './types'

/** Decoded trees kept in memory; trees are immutable, so the cache never goes stale. */
const CACHE_LIMIT = 20_000

/** Reads snapshots (trees) back: whole manifests, single paths, subtree walks. */
export class TreeReader {
  private readonly cache = new Map<string, TreeChild[]>()

  constructor(private readonly trees: ObjectStore) {}

  /** Throws `NotFound` for an id that is not (or no longer) in the store. */
  assertExists(id: SnapshotId): void {
    if (!this.cache.has(id) && !this.trees.has(id)) {
      throw new HotaruError(ErrorNames.NotFound, { message: `snapshot ${id} does not exist`, id })
    }
  }

  read(hash: string): TreeChild[] {
    const hit = this.cache.get(hash)
    if (hit) return hit
    const children = decodeTree(hash, this.trees.get(hash))
    if (this.cache.size >= CACHE_LIMIT) {
      const oldest = this.cache.keys().next()
      if (!oldest.done) this.cache.delete(oldest.value)
    }
    this.cache.set(hash, children)
    return children
  }

  /** Forget cached trees, e.g. after garbage collection removed some. */
  clear(): void {
    this.cache.clear()
  }

  manifest(id: SnapshotId): Map<string, ManifestEntry> {
    this.assertExists(id)
    const out = new Map<string, ManifestEntry>()
    this.collect(id, '', out)
    return out
  }

  /** Adds every entry below tree `hash` to `out`, paths prefixed with `prefix`. */
  collect(hash: string, prefix: string, out: Map<string, ManifestEntry>): void {
    for (const child of this.read(hash)) {
      const path = prefix === '' ? child.name : `${prefix}/${child.name}`
      if (child.dir !== undefined) this.collect(child.dir, path, out)
      else out.set(path, child.entry)
    }
  }

  /** One path's entry, reading only the trees along the path. */
  lookup(id: SnapshotId, path: string): ManifestEntry | undefined {
    this.assertExists(id)
    let hash = id
    const segments = path.split('/')
    for (let i = 0; i < segments.length; i++) {
      const child = this.read(hash).find((c) => c.name === segments[i])
      if (!child) return undefined
      const last = i === segments.length - 1
      if (child.dir !== undefined) {
        if (last) return undefined
        hash = child.dir
      } else {
        return last ? child.entry : undefined
      }
    }
    return undefined
  }
}
