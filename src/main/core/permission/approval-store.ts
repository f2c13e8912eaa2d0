import type { Rule } from './rule'

/**
 * Where "always" approvals with scope `persisted` are kept across runs (SQLite in the
 * app). Both methods may be synchronous or return a promise.
 */
export interface ApprovalStore {
  list(projectId: string): Rule[] | Promise<Rule[]>
  add(projectId: string, rule: Rule): void | Promise<void>
  /** Forgets one remembered approval (revoked in settings). */
  remove?(projectId: string, rule: Rule): boolean | Promise<boolean>
}

/** An in-memory store, for tests and runs that keep nothing. */
export class MemoryApprovalStore implements ApprovalStore {
  private readonly rules = new Map<string, Rule[]>()

  list(projectId: string): Rule[] {
    return [...(this.rules.get(projectId) ?? [])]
  }

  add(projectId: string, rule: Rule): void {
    const list = this.rules.get(projectId) ?? []
    list.push(rule)
    this.rules.set(projectId, list)
  }

  remove(projectId: string, rule: Rule): boolean {
    const list = this.rules.get(projectId) ?? []
    const next = list.filter((r) => r.permission !== rule.permission || r.pattern !== rule.pattern)
    this.rules.set(projectId, next)
    return next.length !== list.length
  }
}
