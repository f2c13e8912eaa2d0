import type { Db } from './database'

export interface ApprovalRow {
  permission: string
  pattern: string
  action: 'allow' | 'ask' | 'deny'
}

/** "Always" permission answers the user chose to keep for a project, oldest first. */
export class ApprovalsRepo {
  constructor(private readonly db: Db) {}

  list(projectId: string): ApprovalRow[] {
    return this.db
      .prepare('SELECT permission, pattern, action FROM permission_approvals WHERE project_id = ? ORDER BY id')
      .all(projectId) as ApprovalRow[]
  }

  add(projectId: string, rule: ApprovalRow): void {
    this.db
      .prepare(
        `INSERT INTO permission_approvals (project_id, permission, pattern, action, created_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(project_id, permission, pattern) DO UPDATE SET action = excluded.action`,
      )
      .run(projectId, rule.permission, rule.pattern, rule.action, Date.now())
  }

  remove(projectId: string, permission: string, pattern: string): boolean {
    return (
      this.db
        .prepare('DELETE FROM permission_approvals WHERE project_id = ? AND permission = ? AND pattern = ?')
        .run(projectId, permission, pattern).changes > 0
    )
  }
}
