import { constants, copyFileSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, realpathSync, symlinkSync, type Stats } from 'node:fs'
import { dirname, join } from 'node:path'
import { IgnoreRules } from '../project/ignore-rules'
import { type ObjectStore, sha256 } from './object-store'
import { isSafeName } from './tree-codec'
import { writeNewFiles } from './file-writers'
import type { FileEntry, Manifest, ManifestEntry } from './types'

/** What a file looked like when last compared: size, mtime (ms) and content hash, so unchanged files are not re-read. */
export type StatCache = Record<string, [size: number, mtimeMs: number, hash: string]>

export interface TreeChange {
  path: string
  status: 'added' | 'modified' | 'deleted'
}

function assertSafe(path: string): void {
  if (!path.split('/').every((segment) => isSafeName(segment))) throw new Error(`unsafe path in snapshot: ${path}`)
}

/**
 * Writes every file and link of a snapshot into an empty folder `target`: files from several
 * writer threads (see `writeNewFiles`), links here. Files over the size cap (listed, content not
 * stored) are copied from `sourceRoot` when it still holds them. Returns the stat cache of what was
 * written, so a later comparison only re-reads files touched since.
 */
export async function materializeTree(blobs: ObjectStore, manifest: Manifest, target: string, sourceRoot: string): Promise<StatCache> {
  const dirs = new Set<string>()
  for (const path of manifest.keys()) {
    assertSafe(path)
    const slash = path.lastIndexOf('/')
    if (slash > 0) dirs.add(path.slice(0, slash))
  }
  for (const dir of [...dirs].sort()) mkdirSync(join(target, dir), { recursive: true })
  const files: Array<[string, FileEntry]> = []
  for (const [path, entry] of manifest) {
    if (entry.kind === 'file') files.push([path, entry])
    else if (entry.kind === 'symlink') symlinkSync(entry.target, join(target, path))
    else copyFileSync(join(sourceRoot, path), join(target, path), constants.COPYFILE_EXCL)
  }
  const stats = await writeNewFiles({
    count: files.length,
    sizeOf: (i) => (files[i] as [string, FileEntry])[1].size,
    read: (i) => {
      const [path, entry] = files[i] as [string, FileEntry]
      return { path: join(target, path), data: blobs.get(entry.hash), mode: entry.exec ? 0o777 : 0o666 }
    },
  })
  const cache: StatCache = {}
  files.forEach(([path, entry], i) => {
    const [size, mtimeMs] = stats[i] as [number, number]
    cache[path] = [size, mtimeMs, entry.hash]
  })
  return cache
}

/**
 * Files of folder `dir` that differ from the snapshot `manifest` (same ignore rules as a snapshot:
 * the folder's `.gitignore`s, the default excludes and `extraExcludes`). A file whose size and mtime
 * match the cache keeps its cached hash; others are hashed. Returns the changes and the new cache.
 */
export function compareTree(
  manifest: Manifest,
  dir: string,
  cache: StatCache,
  extraExcludes: readonly string[] = [],
): { changes: TreeChange[]; cache: StatCache } {
  const rules = new IgnoreRules(dir, extraExcludes)
  const next: StatCache = {}
  const seen = new Set<string>()
  const changes: TreeChange[] = []
  const walk = (rel: string): void => {
    for (const dirent of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel === '' ? dirent.name : `${rel}/${dirent.name}`
      const isDir = dirent.isDirectory()
      if (rules.isIgnored(path, isDir)) continue
      if (isDir) {
        walk(path)
        continue
      }
      const entry = manifest.get(path)
      seen.add(path)
      if (dirent.isSymbolicLink()) {
        const target = readlinkSync(join(dir, path))
        if (entry?.kind !== 'symlink' || entry.target !== target) changes.push({ path, status: entry ? 'modified' : 'added' })
        continue
      }
      if (!dirent.isFile()) continue
      if (!entry) {
        changes.push({ path, status: 'added' })
        continue
      }
      const stats = lstatSync(join(dir, path))
      const cached = cache[path]
      let hash: string | undefined
      if (cached && cached[0] === stats.size && cached[1] === stats.mtimeMs) hash = cached[2]
      else if (entry.kind !== 'file' || entry.size === stats.size) hash = sha256(readFileSync(join(dir, path)))
      if (hash !== undefined) next[path] = [stats.size, stats.mtimeMs, hash]
      const same = entry.kind === 'file' ? hash === entry.hash : entry.kind === 'untracked' && entry.size === stats.size
      if (!same) changes.push({ path, status: 'modified' })
    }
  }
  walk('')
  for (const path of manifest.keys()) if (!seen.has(path)) changes.push({ path, status: 'deleted' })
  changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  return { changes, cache: next }
}

/**
 * Which of `paths` differ in folder `dir` from the snapshot `manifest`, read one by one instead of
 * walking the folder (a merge asks only about the files the other side changed). A path whose
 * folders lead out of `dir` through a link counts as modified: it is not read.
 */
export function comparePaths(manifest: Manifest, dir: string, paths: readonly string[]): TreeChange[] {
  const root = realpathSync(dir)
  const changes: TreeChange[] = []
  for (const path of paths) {
    assertSafe(path)
    const entry = manifest.get(path)
    const status = compareOne(root, path, entry)
    if (status) changes.push({ path, status })
  }
  return changes
}

function compareOne(root: string, path: string, entry: ManifestEntry | undefined): TreeChange['status'] | null {
  const abs = join(root, path)
  let folder: string
  try {
    folder = realpathSync(dirname(abs))
  } catch (error) {
    if (!isMissing(error)) throw error
    return entry ? 'deleted' : null
  }
  if (folder !== root && !folder.startsWith(`${root}/`)) return entry ? 'modified' : 'added'
  let stats: Stats
  try {
    stats = lstatSync(abs)
  } catch (error) {
    if (!isMissing(error)) throw error
    return entry ? 'deleted' : null
  }
  if (stats.isSymbolicLink()) return entry?.kind === 'symlink' && entry.target === readlinkSync(abs) ? null : entry ? 'modified' : 'added'
  if (!stats.isFile()) return entry ? 'deleted' : null
  if (!entry) return 'added'
  if (entry.kind === 'untracked') return entry.size === stats.size ? null : 'modified'
  if (entry.kind !== 'file' || entry.size !== stats.size) return 'modified'
  return sha256(readFileSync(abs)) === entry.hash ? null : 'modified'
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code
  return code === 'ENOENT' || code === 'ENOTDIR'
}
