import type { ProjectNotice } from '@shared/ipc/project'
import type { EventBus } from '../bus/bus'
import type { Subscription } from '../util/disposable'

/** How the notice of a folder in restricted mode begins (`restrictedSummary`): trusting the folder retires it. */
const RESTRICTED_PREFIX = 'Restricted mode:'

/** Kept per project; the oldest go first beyond it. */
const MAX_NOTICES = 100
/** Dismissed texts remembered per project. */
const MAX_DISMISSED = 1000

interface ProjectLog {
  notices: Map<string, ProjectNotice>
  dismissed: Set<string>
}

/**
 * The notices of each open project, for the notices area: config warnings and broken extension
 * files (`project:notice`) and MCP warnings (`mcp:warning`), recorded from the bus, so a client
 * that connects (or reloads) later still sees what was published before. The same text again
 * counts up instead of adding a row (extension errors are reported every turn). Dismissing is
 * remembered while the project is open: a dismissed text published again stays dismissed, a new
 * text shows. Everything of a project goes when it closes.
 */
export class NoticeLog {
  private readonly logs = new Map<string, ProjectLog>()
  private counter = 0
  private readonly events: Subscription

  constructor(bus: EventBus, private readonly now: () => number = Date.now) {
    this.events = bus.subscribe((event) => {
      const projectId = event.envelope.projectId
      if (event.channel === 'project:closed') {
        this.logs.delete((event.envelope.payload as { projectId: string }).projectId)
        return
      }
      if (event.channel === 'trust:changed') {
        const change = event.envelope.payload as { trusted: boolean; projectIds?: readonly string[] }
        if (change.trusted) for (const id of change.projectIds ?? []) this.retire(id, (n) => n.message.startsWith(RESTRICTED_PREFIX))
        return
      }
      if (projectId === undefined) return
      if (event.channel === 'project:notice') {
        const notice = event.envelope.payload as { level: ProjectNotice['level']; message: string; file?: string }
        this.record(projectId, { source: 'project', level: notice.level, message: notice.message, ...(notice.file ? { file: notice.file } : {}) })
      } else if (event.channel === 'mcp:warning') {
        this.record(projectId, { source: 'mcp', level: 'warning', message: (event.envelope.payload as { message: string }).message })
      }
    })
  }

  list(projectId: string): ProjectNotice[] {
    return [...(this.logs.get(projectId)?.notices.values() ?? [])].map((n) => ({ ...n }))
  }

  /** Dismisses the notices with `ids` (all without); returns how many went. */
  dismiss(projectId: string, ids?: readonly string[]): number {
    const log = this.logs.get(projectId)
    if (!log) return 0
    let dismissed = 0
    for (const [key, notice] of log.notices) {
      if (ids && !ids.includes(notice.id)) continue
      log.notices.delete(key)
      log.dismissed.add(key)
      dismissed++
    }
    while (log.dismissed.size > MAX_DISMISSED) log.dismissed.delete(log.dismissed.values().next().value as string)
    return dismissed
  }

  /** Removes notices that no longer hold (not remembered as dismissed: should they hold again, they show again). */
  retire(projectId: string, stale: (notice: ProjectNotice) => boolean): number {
    const log = this.logs.get(projectId)
    if (!log) return 0
    let retired = 0
    for (const [key, notice] of log.notices) {
      if (!stale(notice)) continue
      log.notices.delete(key)
      retired++
    }
    return retired
  }

  dispose(): void {
    this.events.dispose()
    this.logs.clear()
  }

  private record(projectId: string, notice: Omit<ProjectNotice, 'id' | 'count' | 'at'>): void {
    let log = this.logs.get(projectId)
    if (!log) {
      log = { notices: new Map(), dismissed: new Set() }
      this.logs.set(projectId, log)
    }
    const key = `${notice.source}\0${notice.level}\0${notice.message}`
    if (log.dismissed.has(key)) return
    const existing = log.notices.get(key)
    if (existing) {
      // Counted, and moved to the end: it is the newest again.
      log.notices.delete(key)
      log.notices.set(key, { ...existing, count: existing.count + 1, at: this.now() })
      return
    }
    log.notices.set(key, { ...notice, id: `ntc_${++this.counter}`, count: 1, at: this.now() })
    while (log.notices.size > MAX_NOTICES) log.notices.delete(log.notices.keys().next().value as string)
  }
}
