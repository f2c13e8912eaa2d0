import type { LspDiagnostic } from '@shared/ipc/lsp'
import { formatDiagnostic } from './format'
import type { DiagnosticsReport, ProjectLsp } from './project-lsp'

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
 * The post-step of every tool call: after an edit, waits (capped) for the
 * diagnostics of the touched files and returns what to append; after a read,
 * opens the file on its server without waiting. Failed calls are left alone.
 */
export async function diagnosticsAfterTool(
  lsp: ProjectLsp,
  input: { tool: string; metadata: Record<string, unknown>; failed: boolean; signal: AbortSignal; waitMs: number; quietMs: number },
): Promise<AfterToolResult | undefined> {
  if (input.failed || input.signal.aborted) return undefined
  const files = touchedFiles(input.tool, input.metadata)
  if (files.length === 0) return undefined
  if (WARMING_TOOLS.has(input.tool)) {
    await lsp.touch(files, { waitMs: 0 })
    return undefined
  }
  if (!EDITING_TOOLS.has(input.tool)) return undefined
  // A stop ends the wait at once: the turn never waits on a server it no longer needs.
  const stopped = new Promise<undefined>((resolve) => input.signal.addEventListener('abort', () => resolve(undefined), { once: true }))
  const report = await Promise.race([lsp.touch(files, { waitMs: input.waitMs, quietMs: input.quietMs }), stopped])
  if (!report) return undefined
  const output = formatReport(report)
  if (!output) return undefined
  return { output, metadata: { diagnostics: report } }
}
