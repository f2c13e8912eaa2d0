import type { Diagnostic, DiagnosticSeverity } from 'vscode-languageserver-protocol/node'
import type { LspDiagnostic, LspFileDiagnostics } from '@shared/ipc/lsp'

/** The protocol's severity codes (written out: the protocol library loads only with a language server). */
const SEVERITY: Record<DiagnosticSeverity, LspDiagnostic['severity']> = { 1: 'error', 2: 'warning', 3: 'info', 4: 'hint' }
const ERROR: DiagnosticSeverity = 1

/** TypeScript's numeric codes read as `TS2322`, as `tsc` prints them; other servers' codes as they are. */
function codeOf(diagnostic: Diagnostic): string | undefined {
  if (diagnostic.code === undefined) return undefined
  const code = String(diagnostic.code)
  return diagnostic.source === 'typescript' || diagnostic.source === 'ts' ? `TS${code}` : code
}

/** From the wire (0-based, optional severity) to what the app shows (1-based, severity named). */
export function toLspDiagnostic(diagnostic: Diagnostic): LspDiagnostic {
  const code = codeOf(diagnostic)
  return {
    line: diagnostic.range.start.line + 1,
    column: diagnostic.range.start.character + 1,
    endLine: diagnostic.range.end.line + 1,
    endColumn: diagnostic.range.end.character + 1,
    // Servers that leave severity out mean an error (the spec lets the client decide).
    severity: SEVERITY[diagnostic.severity ?? ERROR] ?? 'error',
    message: typeof diagnostic.message === 'string' ? diagnostic.message : diagnostic.message.value,
    ...(code ? { code } : {}),
    ...(diagnostic.source ? { source: diagnostic.source } : {}),
  }
}

const MAX_MESSAGE = 400

/** `src/a.ts:3:7 error TS2322: Type 'string' is not assignable to type 'number'.` on one line. */
export function formatDiagnostic(path: string, d: LspDiagnostic): string {
  const text = d.message.replace(/\s*\n\s*/g, ' ').trim()
  const message = text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text
  return `${path}:${d.line}:${d.column} ${d.severity}${d.code ? ` ${d.code}` : ''}: ${message}`
}

export function errorsOf(file: LspFileDiagnostics): LspDiagnostic[] {
  return file.diagnostics.filter((d) => d.severity === 'error')
}

/** An error's identity across edits that move it to another line. */
export function errorKey(path: string, d: LspDiagnostic): string {
  return `${path}\u0000${d.code ?? ''}\u0000${d.message}`
}
