import { compareNames, encodeTree, sameEntry, type TreeChild } from './tree-codec'
import type { ManifestEntry } from './types'

/** What lstat said about a path when its entry was computed; equal signatures mean no rehash. */
export interface StatSig {
  size: number
  mtimeNs: bigint
  ctimeNs: bigint
  ino: bigint
  mode: number
}

export interface IndexRecord extends StatSig {
  entry: ManifestEntry
  /** Stamp of the last walk that saw this path (only meaningful during a walk). */
  walk?: number
}

export type SetOutcome = 'same' | 'stat-only' | 'entry'

export function sameSig(a: StatSig, b: StatSig): boolean {
  return a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs && a.ino === b.ino && a.mode === b.mode
}

export function parentOf(path: string): string {
  const slash = path.lastIndexOf('/')
  return slash < 0 ? '' : path.slice(0, slash)
}

function nameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1)
}

function joinPath(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`
}

/**
 * The working tree as last scanned: path → entry plus the stat signature it was computed
 * from (the stat index), the directory structure, and each directory's tree hash cached
 * until something below it changes. Building the root tree after a change therefore
 * re-encodes only the directories on the changed paths.
 */
export class TreeState {
  readonly records = new Map<string, IndexRecord>()
  readonly untracked = new Set<string>()
  private readonly children = new Map<string, Set<string>>([['', new Set()]])
  private readonly dirHashes = new Map<string, string>()
  /** Paths whose record changed since `takeChanges()`: what the index log must append. */
  private readonly changes = new Set<string>()

  get size(): number {
    return this.records.size
  }

  get(path: string): IndexRecord | undefined {
    return this.records.get(path)
  }

  isDir(path: string): boolean {
    return this.children.has(path)
  }

  set(path: string, record: IndexRecord): SetOutcome {
    const previous = this.records.get(path)
    if (previous && sameEntry(previous.entry, record.entry) && previous.size === record.size) {
      if (sameSig(previous, record)) return 'same'
      this.records.set(path, record)
      this.changes.add(path)
      return 'stat-only'
    }
    // A path that was a directory, or sits below what was a file, replaces that structure.
    if (this.children.has(path)) this.deleteUnder(path)
    for (let dir = parentOf(path); dir !== ''; dir = parentOf(dir)) {
      if (this.records.has(dir)) {
        this.delete(dir)
        break
      }
    }
    this.records.set(path, record)
    this.changes.add(path)
    if (record.entry.kind === 'untracked') this.untracked.add(path)
    else this.untracked.delete(path)
    this.link(path)
    return 'entry'
  }

  delete(path: string): boolean {
    if (!this.records.delete(path)) return false
    this.untracked.delete(path)
    this.changes.add(path)
    this.unlink(path)
    return true
  }

  /** Removes every record below directory `dir` (not `dir` itself if it is a file). */
  deleteUnder(dir: string): number {
    if (dir === '') {
      const count = this.records.size
      for (const path of this.records.keys()) this.changes.add(path)
      this.records.clear()
      this.untracked.clear()
      this.children.clear()
      this.children.set('', new Set())
      this.dirHashes.clear()
      return count
    }
    const names = this.children.get(dir)
    if (!names) return 0
    let removed = 0
    for (const name of [...names]) {
      const path = joinPath(dir, name)
      if (this.records.has(path)) {
        this.delete(path)
        removed++
      } else {
        removed += this.deleteUnder(path)
      }
    }
    return removed
  }

  /** Every record path below `dir` (`''` = all). */
  pathsUnder(dir: string): string[] {
    if (dir === '') return [...this.records.keys()]
    const out: string[] = []
    const visit = (d: string): void => {
      for (const name of this.children.get(d) ?? []) {
        const path = joinPath(d, name)
        if (this.records.has(path)) out.push(path)
        else visit(path)
      }
    }
    visit(dir)
    return out
  }

  takeChanges(): string[] {
    const out = [...this.changes]
    this.changes.clear()
    return out
  }

  /** Forget cached directory hashes, e.g. after garbage collection may have removed their trees. */
  invalidateTrees(): void {
    this.dirHashes.clear()
  }

  /** Hash of the root tree, encoding only directories whose hash is not cached; `write` stores a new tree. */
  buildRoot(write: (hash: string, bytes: Buffer) => void): string {
    return this.hashDir('', write)
  }

  private hashDir(dir: string, write: (hash: string, bytes: Buffer) => void): string {
    const cached = this.dirHashes.get(dir)
    if (cached !== undefined) return cached
    const names = [...(this.children.get(dir) ?? [])].sort(compareNames)
    const kids: TreeChild[] = names.map((name) => {
      const path = joinPath(dir, name)
      const record = this.records.get(path)
      return record ? { name, entry: record.entry } : { name, dir: this.hashDir(path, write) }
    })
    const { hash, bytes } = encodeTree(kids)
    write(hash, bytes)
    this.dirHashes.set(dir, hash)
    return hash
  }

  /** Registers `path` in its ancestors' child sets and invalidates their cached hashes. */
  private link(path: string): void {
    let child = path
    let dir = parentOf(path)
    for (;;) {
      this.dirHashes.delete(dir)
      let names = this.children.get(dir)
      if (!names) {
        names = new Set()
        this.children.set(dir, names)
      }
      names.add(nameOf(child))
      if (dir === '') break
      child = dir
      dir = parentOf(dir)
    }
  }

  /** Removes `path` from its parent, dropping directories left empty, and invalidates ancestors. */
  private unlink(path: string): void {
    let child = path
    let dir = parentOf(path)
    let pruning = true
    for (;;) {
      this.dirHashes.delete(dir)
      if (pruning) {
        const names = this.children.get(dir)
        names?.delete(nameOf(child))
        if (dir !== '' && names && names.size === 0) this.children.delete(dir)
        else pruning = false
      }
      if (dir === '') break
      child = dir
      dir = parentOf(dir)
    }
  }
}
