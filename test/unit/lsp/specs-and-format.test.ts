import { describe, expect, it } from 'vitest'
import { ConfigSchema } from '../../../src/main/core/config/schema'
import { formatReport, touchedFiles } from '../../../src/main/core/lsp/after-edit'
import { effectiveServers, installPolicy, serverForFile } from '../../../src/main/core/lsp/specs'
import { formatDiagnostic, toLspDiagnostic } from '../../../src/main/core/lsp/format'

const error = (line: number, message: string, code = 'TS2322') =>
  ({ line, column: 3, endLine: line, endColumn: 9, severity: 'error', message, code }) as const

describe('lsp config', () => {
  it('turns everything off with false, disables one server, adds one, pins a command', () => {
    expect(effectiveServers(false).servers).toEqual([])
    const { servers, errors } = effectiveServers({
      pyright: { disabled: true },
      typescript: { command: ['/opt/ts-ls', '--stdio'] },
      mylang: { command: ['my-ls'], extensions: ['.my', '.ts'] },
      broken: { extensions: ['.x'] },
    })
    expect(servers.map((s) => s.spec.id)).not.toContain('pyright')
    expect(servers.find((s) => s.spec.id === 'typescript')?.command).toEqual(['/opt/ts-ls', '--stdio'])
    // A server the user added wins the extensions it claims.
    expect(serverForFile(servers, '/p/a.ts')?.spec.id).toBe('mylang')
    expect(serverForFile(servers, '/p/a.py')).toBeUndefined()
    expect(serverForFile(servers, '/p/a.go')?.spec.id).toBe('gopls')
    expect(errors).toEqual(['lsp.broken: a server that is not built in needs "command" and "extensions"'])
  })

  it('is validated with the rest of the config: install policy and server fields', () => {
    expect(ConfigSchema.safeParse({ lsp: { install: 'auto', yaml: { disabled: true } } }).success).toBe(true)
    expect(ConfigSchema.safeParse({ lsp: { install: 'sometimes' } }).success).toBe(false)
    expect(ConfigSchema.safeParse({ lsp: { x: { command: 'not-an-array' } } }).success).toBe(false)
    expect(ConfigSchema.safeParse({ lsp: { x: { extensions: ['ts'] } } }).success).toBe(false)
    expect(installPolicy(ConfigSchema.parse({ lsp: { install: 'never' } }).lsp)).toBe('never')
    expect(installPolicy(undefined)).toBe('ask')
  })
})

describe('diagnostics as the model reads them', () => {
  it('names path, line, column, severity and the TS code on one line', () => {
    const d = toLspDiagnostic({
      range: { start: { line: 1, character: 13 }, end: { line: 1, character: 18 } },
      severity: 1,
      code: 2322,
      source: 'typescript',
      message: "Type 'string' is not assignable to type 'number'.\n  Details follow.",
    })
    expect(formatDiagnostic('src/main.ts', d)).toBe("src/main.ts:2:14 error TS2322: Type 'string' is not assignable to type 'number'. Details follow.")
  })

  it('caps errors per file at 20 and other files at 5, and passes notes on', () => {
    const many = Array.from({ length: 25 }, (_, i) => error(i + 1, `problem ${i}`))
    const text = formatReport({
      files: [{ path: 'a.ts', server: 'typescript', errors: many }],
      others: Array.from({ length: 7 }, (_, i) => ({ path: `o${i}.ts`, errors: [error(1, 'new')] })),
      notes: ['The Python (pyright) language server is still starting; its diagnostics are not in this result.'],
    })
    expect(text.match(/^a\.ts:\d+:3 error/gm)).toHaveLength(20)
    expect(text).toContain('(5 more errors in a.ts not shown)')
    expect(text.match(/^o\d\.ts:1:3 error/gm)).toHaveLength(5)
    expect(text).toContain('(new errors in 2 more files not shown)')
    expect(text).toContain('still starting')
    expect(formatReport({ files: [{ path: 'a.ts', server: 'typescript', errors: [] }], others: [], notes: [] })).toBe('Diagnostics:\nNo errors in a.ts.')
  })

  it('finds the files each editing tool touched', () => {
    expect(touchedFiles('edit', { filePath: '/p/a.ts' })).toEqual(['/p/a.ts'])
    expect(touchedFiles('apply_patch', { files: [{ type: 'update', path: 'a.ts' }, { type: 'delete', path: 'b.ts' }, { type: 'add', path: 'c.ts' }] })).toEqual([
      'a.ts',
      'c.ts',
    ])
  })
})
