import { realpathSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import type { TrustRepo, TrustRow } from '../storage/trust-repo'
import { Emitter, type Subscription, type Listener } from '../util/emitter'

/** How a folder stands: trusted or restricted, and which stored decision says so. */
export interface TrustState {
  /** The folder asked about, canonical. */
  path: string
  trusted: boolean
  /** The folder whose decision applies (the folder itself or a parent); absent when nobody decided yet. */
  decidedBy?: string
}

/** A decision was made on a folder, or forgotten (`trusted` undefined). */
export interface TrustChange {
  path: string
  trusted: boolean | undefined
}

/** Canonical path of a folder: symlinks resolved, so a link cannot borrow a trusted folder's decision by name. */
export function canonicalFolder(path: string): string {
  const abs = resolve(path)
  try {
    return realpathSync(abs)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    // A folder that does not exist (yet) is decided by its literal path; it can hold no config.
    if (code === 'ENOENT' || code === 'ENOTDIR') return abs
    throw error
  }
}

/**
 * Workspace trust: whether a folder's own config, tools, hooks and MCP servers may
 * run. A decision on a folder covers everything below it; the nearest decision wins,
 * so a restricted subfolder of a trusted parent stays restricted. Nothing is trusted
 * until the user says so — opening a folder (also with `--dir`) is not trusting it.
 */
export class TrustService {
  private readonly changes = new Emitter<TrustChange>('trust')

  constructor(private readonly repo: TrustRepo) {}

  state(path: string): TrustState {
    const folder = canonicalFolder(path)
    const decisions = new Map(this.repo.list().map((row) => [row.path, row.trusted]))
    for (let current = folder; ; current = dirname(current)) {
      const decision = decisions.get(current)
      if (decision !== undefined) return { path: folder, trusted: decision, decidedBy: current }
      if (dirname(current) === current) return { path: folder, trusted: false }
    }
  }

  isTrusted(path: string): boolean {
    return this.state(path).trusted
  }

  /** Trusts the folder and everything below it. */
  trust(path: string): TrustState {
    return this.decide(path, true)
  }

  /** Keeps the folder restricted (and stops asking), also below a trusted parent. */
  restrict(path: string): TrustState {
    return this.decide(path, false)
  }

  /** Forgets the decision on exactly this folder; a parent's decision may still apply. */
  revoke(path: string): { removed: boolean; state: TrustState } {
    const folder = canonicalFolder(path)
    const removed = this.repo.delete(folder)
    if (removed) this.changes.emit({ path: folder, trusted: undefined })
    return { removed, state: this.state(folder) }
  }

  list(): TrustRow[] {
    return this.repo.list()
  }

  /** How many listeners follow trust decisions. */
  get listenerCount(): number {
    return this.changes.listenerCount
  }

  onChange(listener: Listener<TrustChange>): Subscription {
    return this.changes.on(listener)
  }

  private decide(path: string, trusted: boolean): TrustState {
    const folder = canonicalFolder(path)
    this.repo.set(folder, trusted)
    this.changes.emit({ path: folder, trusted })
    return this.state(folder)
  }
}
