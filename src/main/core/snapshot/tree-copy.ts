import { constants, copyFileSync, lstatSync, mkdirSync, readFileSync, readlinkSync, realpathSync, symlinkSync, type Stats } from 'node:fs'
import { dirname, join } from 'node:path'
import { type ObjectStore, sha256 } from './object-store'
import { isSafeName } from './tree-codec'
import { writeNewFiles } from './file-writers'
import type { IndexRecord, StatSig } from './tree-state'
import type { FileEntry, Manifest, ManifestEntry } from './types'

export interface TreeChange {
  path: string
  status: 'added' | 'modified' | 'deleted'
}

function assertSafe(path: string): void {
  if (!path.split('/').every((segment) => isSafeName(segment))) throw new Error(`unsafe path in snapshot: ${path}`)
}

/**
 * Writes every file and link of a snapshot into an empty folder `target`: files and their folders
 * from several writer threads (see `writeNewFiles`), links here. Files over the size cap (listed, content not
 * stored) are copied from `sourceRoot` when it still holds them. Returns the stat index records of
 * the files written (signature as written, entry from the snapshot), so a later comparison only
 * re-reads files touched since.
 */
export async function materializeTree(blobs: ObjectStore, manifest: Manifest, target: string, sourceRoot: string): Promise<Array<[string, IndexRecord]>> {
  const files: Array<[string, FileEntry]> = []
  for (const [path, entry] of manifest) {
    assertSafe(path)
    if (entry.kind === 'file') {
      files.push([path, entry])
      continue
    }
    // Files' folders are made by the writers as they go; links and uncached files need theirs now.
    mkdirSync(dirname(join(target, path)), { recursive: true })
    if (entry.kind === 'symlink') symlinkSync(entry.target, join(target, path))
    else copyFileSync(join(sourceRoot, path), join(target, path), constants.COPYFILE_EXCL)
  }
  const stats = await writeNewFiles({
    foldersUnder: target,
    count: files.length,
    sizeOf: (i) => (files[i] as [string, FileEntry])[1].size,
    // A packed object goes as its place in the pack (the writer reads and checks it), a loose one as its bytes.
    read: (i) => {
      const [path, entry] = files[i] as [string, FileEntry]
      const file = { path: join(target, path), mode: entry.exec ? 0o777 : 0o666 }
      const at = blobs.locate(entry.hash)
      return at ? { ...file, packed: { ...at, hash: entry.hash } } : { ...file, data: blobs.get(entry.hash) }
    },
    load: (i) => {
      const [path, entry] = files[i] as [string, FileEntry]
      return { path: join(target, path), data: blobs.get(entry.hash), mode: entry.exec ? 0o777 : 0o666 }
    },
  })
  return files.map(([path, entry], i) => [path, { ...(stats[i] as StatSig), entry }])
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
