import type { BusEvent } from '../core/bus/bus'
import type { PreviewSurface } from './preview-surface'

/**
 * One client of the IPC layer: an Electron window or a WebSocket. Project events
 * reach only the connections that show that project (opened or listed it).
 */
export class Connection {
  private readonly shown = new Set<string>()
  /** Where this client shows preview pages; set by its transport. */
  preview?: PreviewSurface

  constructor(
    readonly id: string,
    private readonly deliver: (event: BusEvent) => void,
  ) {}

  show(projectId: string): void {
    this.shown.add(projectId)
  }

  hide(projectId: string): void {
    this.shown.delete(projectId)
  }

  shows(projectId: string): boolean {
    return this.shown.has(projectId)
  }

  /** Called for every bus event; forwards the ones this client should see. */
  offer(event: BusEvent): void {
    // A client that hears of a newly opened project shows it (it becomes a tab there).
    if (event.channel === 'project:opened') this.show(event.envelope.payload.id)
    if (event.channel === 'project:closed') this.hide(event.envelope.payload.projectId)
    // A client showing a project follows its open worktrees (their sessions are that project's work too).
    if (event.channel === 'worktree:changed') {
      const { projectId, worktree } = event.envelope.payload
      if (worktree?.open && this.shown.has(projectId)) this.show(worktree.projectId)
    }
    const { projectId } = event.envelope
    if (projectId !== undefined && !this.shown.has(projectId)) return
    this.deliver(event)
  }
}
