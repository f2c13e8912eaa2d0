import type { LspDiagnostic } from '@shared/ipc/lsp'
import { DIAGNOSTICS_SECTION, type ContextSection } from '../context/turn-context'
import { formatDiagnostic } from './format'
import type { DiagnosticsReport, PendingFile, ProjectLsp } from './project-lsp'

/** Tools whose results carry the diagnostics of the files they changed. */
export const EDITING_TOOLS: ReadonlySet<string> = new Set(['edit', 'multiedit', 'write', 'apply_patch'])
/** Tools that only open their file on its server, so it is warm by the time the agent edits. */
const WARMING_TOOLS: ReadonlySet<string> = new Set(['read'])

export const MAX_ERRORS_PER_FILE = 20
export const MAX_OTHER_FILES = 5

/** The files a tool call changed, from its result metadata (absolute or project-relative). */
export function touchedFiles(tool: string, metadata: Record<string, unknown>): string[] {
  if (tool === 'apply_patch') {
    const files = Array.isArray(metadata.files) ? (metadata.files as Array<{ type?: unknown; path?: unknown }>) : []
    return files.filter((f) => f.type !== 'delete' && typeof f.path === 'string').map((f) => f.path as string)
  }
  return typeof metadata.filePath === 'string' ? [metadata.filePath] : []
}

/** The report in the compact form the model acts on; empty when no server covers the files. */
export function formatReport(report: DiagnosticsReport): string {
  const lines: string[] = []
  for (const file of report.files) {
    if (file.errors.length === 0) {
      lines.push(`No errors in ${file.path}.`)
      continue
    }
    lines.push(`Errors in ${file.path}:`)
    lines.push(...listErrors(file.path, file.errors))
  }
  const others = report.others.slice(0, MAX_OTHER_FILES)
  if (others.length > 0) {
    lines.push('New errors in other files:')
    for (const file of others) lines.push(...listErrors(file.path, file.errors))
    if (report.others.length > others.length) lines.push(`(new errors in ${report.others.length - others.length} more files not shown)`)
  }
  lines.push(...report.notes)
  return lines.length > 0 ? `Diagnostics:\n${lines.join('\n')}` : ''
}

function listErrors(path: string, errors: LspDiagnostic[]): string[] {
  const shown = errors.slice(0, MAX_ERRORS_PER_FILE).map((d) => formatDiagnostic(path, d))
  if (errors.length > shown.length) shown.push(`(${errors.length - shown.length} more errors in ${path} not shown)`)
  return shown
}

export interface AfterToolResult {
  /** Appended to the tool's output for the model. */
  output: string
  /** For the tool card: the same report, structured. */
  metadata: { diagnostics: DiagnosticsReport }
}

/**
 * The post-step of every tool call: after an edit, the diagnostics of the touched files that a warm
 * server reports within `waitMs` (a server still starting or loading the project is not waited for:
 * what it finds later reaches the model with a later request, see `SessionDiagnostics`); after a
 * read, opens the file on its server without waiting. Failed calls are left alone.
 */
export async function diagnosticsAfterTool(
  lsp: ProjectLsp,
  input: { tool: string; sessionId: string; metadata: Record<string, unknown>; failed: boolean; signal: AbortSignal; waitMs: number; quietMs: number },
): Promise<AfterToolResult | undefined> {
  if (input.failed || input.signal.aborted) return undefined
  const files = touchedFiles(input.tool, input.metadata)
  if (files.length === 0) return undefined
  if (WARMING_TOOLS.has(input.tool)) {
    await lsp.open(files)
    return undefined
  }
  if (!EDITING_TOOLS.has(input.tool)) return undefined
  const ledger = lsp.diagnosticsOf(input.sessionId)
  const pending: PendingFile[] = []
  // A stop ends the wait at once: the turn never waits on a server it no longer needs.
  const stopped = new Promise<undefined>((resolve) => input.signal.addEventListener('abort', () => resolve(undefined), { once: true }))
  const touching = lsp.touch(files, { waitMs: input.waitMs, quietMs: input.quietMs, warmOnly: true, onPending: (file) => pending.push(file) })
  const report = await Promise.race([touching, stopped])
  if (!report) return undefined
  for (const file of pending) ledger.recordEdit(file)
  for (const file of report.files) {
    const handle = lsp.handleById(file.server)
    if (handle) ledger.recordEdit({ abs: lsp.absPath(file.path), path: file.path, handle, sentAt: Number.POSITIVE_INFINITY }, file.errors)
  }
  const output = formatReport(report)
  if (!output) return undefined
  return { output, metadata: { diagnostics: report } }
}

/** Late diagnostics as the turn context section the model reads them in. */
function asSections(lines: string[]): ContextSection[] {
  return lines.length === 0 ? [] : [{ name: DIAGNOSTICS_SECTION, text: lines.join('\n') }]
}

/** What the session's model has not heard about its edits yet; `endTurn` then forgets the edits of the turn that ended. */
export function lateDiagnostics(lsp: ProjectLsp, sessionId: string, options: { endTurn?: boolean } = {}): ContextSection[] {
  const ledger = lsp.diagnosticsOf(sessionId)
  const lines = ledger.take()
  if (options.endTurn) ledger.endTurn()
  return asSections(lines)
}

/** Before a turn ends: the reports its edits are owed (bounded wait), as context sections. */
export async function settleDiagnostics(lsp: ProjectLsp, sessionId: string, options: { maxMs: number; quietMs: number; signal: AbortSignal }): Promise<ContextSection[]> {
  return asSections(await lsp.settle(sessionId, options))
}
