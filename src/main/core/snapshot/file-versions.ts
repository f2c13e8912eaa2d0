import { readFileSync, readlinkSync } from 'node:fs'
import { join } from 'node:path'
import { lstatOrUndefined } from './disk-probe'
import { isBinary } from './line-diff'
import type { ObjectStore } from './object-store'
import { isInGitDir } from './scanner'
import { TEXT_DIFF_CAP_BYTES } from './tree-diff'
import type { FileSide, ManifestEntry } from './types'

/** One side of a diff viewer, from the store. */
export function sideFromStore(blobs: ObjectStore, entry: ManifestEntry | undefined): { side: FileSide | null; binary: boolean } {
  if (!entry) return { side: null, binary: false }
  if (entry.kind === 'symlink') return { side: { kind: 'symlink', size: entry.size, text: entry.target }, binary: false }
  if (entry.kind === 'untracked' || entry.size > TEXT_DIFF_CAP_BYTES) {
    return { side: { kind: entry.kind, size: entry.size, text: null }, binary: false }
  }
  return textSide(blobs.get(entry.hash))
}

/** One side of a diff viewer, from the working tree as it is now (ignored paths and `.git` read as absent). */
export function sideFromDisk(
  root: string,
  path: string,
  isIgnored: (path: string, isDir: boolean) => boolean,
): { side: FileSide | null; binary: boolean } {
  if (isInGitDir(path)) return { side: null, binary: false }
  const abs = join(root, path)
  const stats = lstatOrUndefined(abs)
  if (!stats || stats === 'notdir' || isIgnored(path, stats.isDirectory())) return { side: null, binary: false }
  if (stats.isSymbolicLink()) {
    const target = readlinkSync(abs)
    return { side: { kind: 'symlink', size: Buffer.byteLength(target), text: target }, binary: false }
  }
  if (!stats.isFile()) return { side: null, binary: false }
  const size = Number(stats.size)
  if (size > TEXT_DIFF_CAP_BYTES) return { side: { kind: 'file', size, text: null }, binary: false }
  return textSide(readFileSync(abs))
}

function textSide(data: Buffer): { side: FileSide; binary: boolean } {
  const binary = isBinary(data)
  return { side: { kind: 'file', size: data.length, text: binary ? null : data.toString('utf8') }, binary }
}
