import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { SnapshotClient, SnapshotEngine } from '../../../src/main/core/snapshot'
import type { SnapshotEngineOptions } from '../../../src/main/core/snapshot'
import type { SnapshotClientOptions } from '../../../src/main/core/snapshot/client'

export interface Sandbox {
  root: string
  store: string
  engine(options?: Partial<SnapshotEngineOptions>): SnapshotEngine
  /** The engine in its worker thread, on the same folder and store. */
  client(options?: Partial<SnapshotClientOptions>): SnapshotClient
  cleanup(): Promise<void>
}

/** A project root and a store dir in a fresh temp dir; engines and clients made from it are disposed on cleanup. */
export function sandbox(): Sandbox {
  const base = mkdtempSync(join(tmpdir(), 'hotaru-snapshot-'))
  const root = join(base, 'project')
  const store = join(base, 'store')
  mkdirSync(root)
  const engines: Array<SnapshotEngine | SnapshotClient> = []
  return {
    root,
    store,
    engine(options = {}) {
      const engine = new SnapshotEngine({ root, storeDir: store, ...options })
      engines.push(engine)
      return engine
    },
    client(options = {}) {
      const client = new SnapshotClient({ root, storeDir: store, ...options })
      engines.push(client)
      return client
    },
    async cleanup() {
      for (const engine of engines) await engine.dispose()
      rmSync(base, { recursive: true, force: true })
    },
  }
}

export function write(root: string, path: string, content: string | Buffer, exec = false): void {
  const abs = join(root, path)
  mkdirSync(dirname(abs), { recursive: true })
  writeFileSync(abs, content)
  chmodSync(abs, exec ? 0o755 : 0o644)
}

export function link(root: string, path: string, target: string): void {
  const abs = join(root, path)
  mkdirSync(dirname(abs), { recursive: true })
  symlinkSync(target, abs)
}

export function read(root: string, path: string): string {
  return readFileSync(join(root, path), 'utf8')
}

export function exists(root: string, path: string): boolean {
  try {
    lstatSync(join(root, path))
    return true
  } catch {
    return false
  }
}

export type TreeItem = { kind: 'file'; data: string; exec: boolean } | { kind: 'symlink'; target: string }

/**
 * Files and links below `root` (directories only by what they hold), content as base64.
 * `.git` directories are skipped unless `withGit`; `skip` drops other top-level names.
 */
export function readTree(root: string, options: { withGit?: boolean; skip?: string[] } = {}): Map<string, TreeItem> {
  const out = new Map<string, TreeItem>()
  const visit = (rel: string): void => {
    for (const name of readdirSync(join(root, rel)).sort()) {
      const path = rel ? `${rel}/${name}` : name
      if (!rel && options.skip?.includes(name)) continue
      if (name === '.git' && !options.withGit) continue
      const stats = lstatSync(join(root, path))
      if (stats.isDirectory()) visit(path)
      else if (stats.isSymbolicLink()) out.set(path, { kind: 'symlink', target: readlinkSync(join(root, path)) })
      else out.set(path, { kind: 'file', data: readFileSync(join(root, path)).toString('base64'), exec: (stats.mode & 0o100) !== 0 })
    }
  }
  visit('')
  return out
}

/** Every file below `dir` with its size: to prove an operation wrote nothing to the store. */
export function listFiles(dir: string): Map<string, number> {
  const out = new Map<string, number>()
  if (!existsSync(dir)) return out
  const visit = (abs: string, rel: string): void => {
    for (const name of readdirSync(abs)) {
      const stats = lstatSync(join(abs, name))
      if (stats.isDirectory()) visit(join(abs, name), `${rel}${name}/`)
      else out.set(`${rel}${name}`, stats.size)
    }
  }
  visit(dir, '')
  return out
}

/** Files written within the last moments are rehashed once more (racy-clean rule); tests that count hashes wait it out. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 250))
}

export async function waitFor(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for condition')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** mulberry32: a small seeded PRNG, so a failing property run can be replayed from its seed. */
export function prng(seed: number): { next(): number; int(n: number): number; pick<T>(items: readonly T[]): T } {
  let state = seed >>> 0
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (n: number): number => Math.floor(next() * n)
  return {
    next,
    int,
    pick<T>(items: readonly T[]): T {
      const item = items[int(items.length)]
      if (item === undefined) throw new Error('pick from an empty list')
      return item
    },
  }
}

/** A path as it was before a tool wrote it (`SnapshotEngine.withPreImages`, `scopedSnapshot`). */
export const image = (path: string, text: string, exec = false) => ({ path, content: { data: Buffer.from(text), exec } })
