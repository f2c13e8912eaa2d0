import { pathToFileURL } from 'node:url'
import type { LspDiagnostic } from '@shared/ipc/lsp'
import { errorKey, errorsOf, formatDiagnostic } from './format'
import type { ServerHandle } from './server'

export const MAX_LATE_ERRORS_PER_FILE = 20

interface EditedFile {
  abs: string
  /** Project-relative, as the model knows it. */
  path: string
  handle: ServerHandle
  /** The server's report count for the file when the edit was sent: a higher count is a report about the edit. */
  sentAt: number
}

/**
 * What the model of one session has been told about the errors in the files it edited, and what
 * it has not been told yet. An edit never waits for a server that is starting or slow; what such a
 * server reports later is handed over here (`take`) and goes to the model with its next request,
 * and before a turn ends `settle` waits (bounded) for the reports its edits are still owed.
 */
export class SessionDiagnostics {
  /** Files edited in the current turn, by absolute path. */
  private readonly edited = new Map<string, EditedFile>()
  /** Per project-relative path: the errors the model last heard of, as one key. */
  private readonly told = new Map<string, string>()

  /**
   * An edit was sent to its server. `reported`: the errors the edit's own result carried (the model has
   * heard them); without it the file's report is still owed, `sentAt` being the count to exceed.
   */
  recordEdit(file: EditedFile, reported?: LspDiagnostic[]): void {
    this.edited.set(file.abs, reported === undefined ? { ...file } : { ...file, sentAt: Number.POSITIVE_INFINITY })
    if (reported !== undefined) this.told.set(file.path, keyOf(file.path, reported))
  }

  /** Lines about edited files whose server reported since the edit and whose errors the model has not heard. */
  take(): string[] {
    const lines: string[] = []
    for (const file of this.edited.values()) {
      const uri = pathToFileURL(file.abs).href
      if (file.handle.reportCount(uri) <= file.sentAt) continue
      file.sentAt = Number.POSITIVE_INFINITY
      const errors = errorsOf({ path: file.path, server: file.handle.id, diagnostics: file.handle.diagnostics.get(uri) ?? [] })
      const key = keyOf(file.path, errors)
      const before = this.told.get(file.path)
      if (key === (before ?? '')) continue
      this.told.set(file.path, key)
      if (errors.length === 0) {
        lines.push(`No errors in ${file.path} now.`)
        continue
      }
      lines.push(`Errors in ${file.path}:`, ...errors.slice(0, MAX_LATE_ERRORS_PER_FILE).map((d) => formatDiagnostic(file.path, d)))
      if (errors.length > MAX_LATE_ERRORS_PER_FILE) lines.push(`(${errors.length - MAX_LATE_ERRORS_PER_FILE} more errors in ${file.path} not shown)`)
    }
    return lines
  }

  /** The edited files still owed a report, with their handles. */
  owed(): Array<{ uri: string; handle: ServerHandle; sentAt: number }> {
    return [...this.edited.values()]
      .map((file) => ({ uri: pathToFileURL(file.abs).href, handle: file.handle, sentAt: file.sentAt }))
      .filter((file) => file.sentAt !== Number.POSITIVE_INFINITY && file.handle.reportCount(file.uri) <= file.sentAt)
  }

  /** The turn ended: its edits are settled or no longer waited for (what the model heard stays known). */
  endTurn(): void {
    this.edited.clear()
  }
}

function keyOf(path: string, errors: LspDiagnostic[]): string {
  return errors
    .map((d) => errorKey(path, d))
    .sort()
    .join('\n')
}
