import type { Db } from './database'

/** One worktree as recorded: its own project, the project it was made from, and what it started from. */
export interface WorktreeRow {
  projectId: string
  parentId: string
  name: string
  kind: 'git' | 'copy'
  branch: string | null
  path: string
  /** Commit sha (git) or snapshot id of the main project's store (copy). */
  base: string
  createdAt: number
  mergedAt: number | null
  /** Fingerprint of the worktree's changes when it was last merged (unchanged since = merged). */
  mergedState: string | null
  /** First of the worktree's block of `PORT_BLOCK_SIZE` TCP ports; null until one is allocated. */
  portFirst: number | null
}

interface RawWorktreeRow {
  project_id: string
  parent_id: string
  name: string
  kind: string
  branch: string | null
  path: string
  base: string
  created_at: number
  merged_at: number | null
  merged_state: string | null
  port_first: number | null
}

const fromRaw = (r: RawWorktreeRow): WorktreeRow => ({
  projectId: r.project_id,
  parentId: r.parent_id,
  name: r.name,
  kind: r.kind === 'git' ? 'git' : 'copy',
  branch: r.branch,
  path: r.path,
  base: r.base,
  createdAt: r.created_at,
  mergedAt: r.merged_at,
  mergedState: r.merged_state,
  portFirst: r.port_first,
})

/** The worktree registry. */
export class WorktreesRepo {
  constructor(private readonly db: Db) {}

  list(parentId: string): WorktreeRow[] {
    const rows = this.db.prepare('SELECT * FROM worktrees WHERE parent_id = ? ORDER BY created_at, name').all(parentId) as RawWorktreeRow[]
    return rows.map(fromRaw)
  }

  get(parentId: string, name: string): WorktreeRow | undefined {
    const row = this.db.prepare('SELECT * FROM worktrees WHERE parent_id = ? AND name = ?').get(parentId, name) as RawWorktreeRow | undefined
    return row && fromRaw(row)
  }

  /** The worktree whose own project this is, if any. */
  byProject(projectId: string): WorktreeRow | undefined {
    const row = this.db.prepare('SELECT * FROM worktrees WHERE project_id = ?').get(projectId) as RawWorktreeRow | undefined
    return row && fromRaw(row)
  }

  insert(row: WorktreeRow): void {
    this.db
      .prepare(
        `INSERT INTO worktrees (project_id, parent_id, name, kind, branch, path, base, created_at, merged_at, merged_state, port_first)
         VALUES (@projectId, @parentId, @name, @kind, @branch, @path, @base, @createdAt, @mergedAt, @mergedState, @portFirst)`,
      )
      .run(row)
  }

  /** First ports of every worktree's block, of every project (ports are the machine's, not a project's). */
  portFirsts(): number[] {
    const rows = this.db.prepare('SELECT port_first FROM worktrees WHERE port_first IS NOT NULL').all() as Array<{ port_first: number }>
    return rows.map((r) => r.port_first)
  }

  /** Records the worktree's port block; false when another worktree holds that block (another process took it first). */
  setPorts(projectId: string, portFirst: number): boolean {
    try {
      this.db.prepare('UPDATE worktrees SET port_first = ? WHERE project_id = ?').run(portFirst, projectId)
      return true
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') return false
      throw error
    }
  }

  markMerged(projectId: string, state: string, now = Date.now()): void {
    this.db.prepare('UPDATE worktrees SET merged_at = ?, merged_state = ? WHERE project_id = ?').run(now, state, projectId)
  }

  /** Forgets the worktree and its project (its sessions and checkpoints go with it). */
  remove(projectId: string): boolean {
    const removed = this.db.prepare('DELETE FROM worktrees WHERE project_id = ?').run(projectId).changes > 0
    this.db.prepare('DELETE FROM projects WHERE id = ?').run(projectId)
    return removed
  }
}
