import { z } from 'zod'
import { ProjectId } from '../schema/project'
import type { DomainContract } from './define'

/** One problem a language server reported; lines and columns start at 1. */
export const LspDiagnostic = z.object({
  line: z.number(),
  column: z.number(),
  endLine: z.number(),
  endColumn: z.number(),
  severity: z.enum(['error', 'warning', 'info', 'hint']),
  message: z.string(),
  /** `TS2322` for TypeScript, the server's own code otherwise. */
  code: z.string().optional(),
  source: z.string().optional(),
})
export type LspDiagnostic = z.infer<typeof LspDiagnostic>

/** The current problems of one file (project-relative path, `/`-separated). */
export const LspFileDiagnostics = z.object({
  path: z.string(),
  server: z.string(),
  diagnostics: z.array(LspDiagnostic),
})
export type LspFileDiagnostics = z.infer<typeof LspFileDiagnostics>

export const LspServerState = z.enum(['idle', 'missing', 'installing', 'starting', 'ready', 'restarting', 'degraded', 'stopped'])

export const LspServerStatus = z.object({
  id: z.string(),
  name: z.string(),
  state: LspServerState,
  extensions: z.array(z.string()),
  /** Why it is degraded or missing. */
  reason: z.string().optional(),
  pid: z.number().optional(),
  restarts: z.number(),
  /** Where its executable came from. */
  source: z.enum(['config', 'project', 'app-data', 'bundled', 'path']).optional(),
  openFiles: z.number(),
  /** Missing but installable on demand: the npm packages, and whether the user already declined. */
  install: z.object({ packages: z.array(z.string()), declined: z.boolean() }).optional(),
})
export type LspServerStatus = z.infer<typeof LspServerStatus>

const projectRef = z.object({ projectId: ProjectId }).strict()
const serverRef = z.object({ projectId: ProjectId, server: z.string().min(1).max(100) }).strict()
const pathRef = z.object({ projectId: ProjectId, path: z.string().min(1).max(4096) }).strict()

export const lspContract = {
  methods: {
    /** Every server of the catalog for this project, with its state. */
    status: { input: projectRef, output: z.array(LspServerStatus) },
    /** The current problems of every file a server reported on. */
    diagnostics: { input: projectRef, output: z.array(LspFileDiagnostics) },
    /** The editor opened a file: its server starts (if needed) and reports on it. */
    open: { input: pathRef, output: z.object({ server: z.string().optional() }) },
    restart: { input: serverRef, output: LspServerStatus },
    /** The answer to "install this server?": remembered either way. */
    install: { input: serverRef.extend({ allow: z.boolean() }).strict(), output: LspServerStatus },
  },
  events: {
    status: LspServerStatus,
    diagnostics: LspFileDiagnostics,
  },
  /** What its methods can fail with, besides the failures of any call (`CallErrors`). */
  errors: [
    'NotFound', 'OutsideWorkspace', 'ProjectNotOpen',
  ],
} satisfies DomainContract<'lsp'>
