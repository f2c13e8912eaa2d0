import { SnapshotErrorNames, snapshotError } from './errors'
import { isHash, sha256 } from './object-store'
import type { ManifestEntry } from './types'

/**
 * Tree objects: one per directory, listing its children sorted by name. A directory
 * child points at its own tree by hash (a Merkle tree, as in git), so a snapshot after a
 * small change rewrites only the trees on the changed paths, and a diff skips every
 * subtree whose hash is equal on both sides. The root tree's hash is the snapshot id.
 *
 * Encoding: `{"v":1,"e":[[name, type, ref, size], ...]}` with type `f` file, `x` exec
 * file, `l` symlink (ref = link text), `u` untracked (ref = reason), `d` directory
 * (ref = tree hash). JSON keeps arbitrary names safe; the order is fixed, so equal trees
 * encode to equal bytes and hash to equal ids.
 */

const FORMAT_VERSION = 1

export type TreeChild = { name: string; dir: string } | { name: string; dir?: undefined; entry: ManifestEntry }

type EncodedChild = [string, string, string, number]

export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** Encodes children (already sorted by name) and returns the bytes with their hash. */
export function encodeTree(children: readonly TreeChild[]): { hash: string; bytes: Buffer } {
  const encoded: EncodedChild[] = children.map(encodeChild)
  const bytes = Buffer.from(JSON.stringify({ v: FORMAT_VERSION, e: encoded }), 'utf8')
  return { hash: sha256(bytes), bytes }
}

function encodeChild(child: TreeChild): EncodedChild {
  if (child.dir !== undefined) return [child.name, 'd', child.dir, 0]
  const entry = child.entry
  switch (entry.kind) {
    case 'file':
      return [child.name, entry.exec ? 'x' : 'f', entry.hash, entry.size]
    case 'symlink':
      return [child.name, 'l', entry.target, entry.size]
    case 'untracked':
      return [child.name, 'u', entry.reason, entry.size]
  }
}

export function decodeTree(hash: string, bytes: Buffer): TreeChild[] {
  let parsed: unknown
  try {
    parsed = JSON.parse(bytes.toString('utf8'))
  } catch (error) {
    throw corrupt(hash, 'is not valid JSON', error)
  }
  if (typeof parsed !== 'object' || parsed === null) throw corrupt(hash, 'is not an object')
  const { v, e } = parsed as { v?: unknown; e?: unknown }
  if (v !== FORMAT_VERSION) throw corrupt(hash, `has unsupported format ${String(v)}`)
  if (!Array.isArray(e)) throw corrupt(hash, 'has no entry list')
  return e.map((item: unknown) => decodeChild(hash, item))
}

function decodeChild(hash: string, item: unknown): TreeChild {
  if (!Array.isArray(item) || item.length !== 4) throw corrupt(hash, 'has a malformed entry')
  const [name, type, ref, size] = item as unknown[]
  if (typeof name !== 'string' || !isSafeName(name)) throw corrupt(hash, `has an unsafe name ${JSON.stringify(name)}`)
  if (typeof ref !== 'string' || typeof size !== 'number') throw corrupt(hash, `has a malformed entry "${name}"`)
  switch (type) {
    case 'd':
      if (!isHash(ref)) break
      return { name, dir: ref }
    case 'f':
    case 'x':
      if (!isHash(ref)) break
      return { name, entry: { kind: 'file', hash: ref, size, exec: type === 'x' } }
    case 'l':
      return { name, entry: { kind: 'symlink', target: ref, size } }
    case 'u':
      if (ref !== 'too-large' && ref !== 'unreadable') break
      return { name, entry: { kind: 'untracked', reason: ref, size } }
    default:
      // An entry type this format does not have: malformed, like a bad reference above.
      break
  }
  throw corrupt(hash, `has a malformed entry "${name}"`)
}

/**
 * A name a restore may create: one path segment, never `.git` (never touched) and never
 * a traversal. Checked on decode so a damaged or forged tree cannot write outside the project.
 */
export function isSafeName(name: string): boolean {
  return (
    name !== '' &&
    name !== '.' &&
    name !== '..' &&
    name !== '.git' &&
    !name.includes('/') &&
    !name.includes('\0') &&
    !(process.platform === 'win32' && name.includes('\\'))
  )
}

function corrupt(hash: string, what: string, cause?: unknown) {
  return snapshotError(SnapshotErrorNames.Corrupt, `tree ${hash} ${what}`, { hash }, cause)
}

export function sameEntry(a: ManifestEntry | undefined, b: ManifestEntry | undefined): boolean {
  if (a === undefined || b === undefined) return a === b
  switch (a.kind) {
    case 'file':
      return b.kind === 'file' && a.hash === b.hash && a.exec === b.exec
    case 'symlink':
      return b.kind === 'symlink' && a.target === b.target
    case 'untracked':
      // Content unknown on both sides: equal size is the best evidence there is.
      return b.kind === 'untracked' && a.size === b.size && a.reason === b.reason
  }
}
