import { describe, expect, it } from 'vitest'
import type { IpcResult } from '@shared/errors'
import type { LspFileDiagnostics, LspServerStatus } from '@shared/ipc/lsp'
import type { BusEvent } from '../../../src/main/core/bus/bus'
import { Connection, createAppRouter } from '../../../src/main/ipc'
import { testServices } from '../../support/services'
import { tempDir, writeTree } from '../../support/temp'
import { TS_FIXTURE, waitFor } from './helpers'

describe('lsp over IPC', () => {
  it('opening a file in the editor starts its server; its problems arrive as events and through diagnostics; status and restart work', async () => {
    const services = testServices()
    const router = createAppRouter(services)
    const events: BusEvent[] = []
    const connection = new Connection('test', (e) => events.push(e))
    services.bus.subscribe((e) => connection.offer(e))
    const call = <T>(channel: string, payload?: unknown) => router.handle(connection, channel, payload) as Promise<IpcResult<T>>
    const root = writeTree(tempDir(), { ...TS_FIXTURE, 'src/main.ts': "export const n: number = 'x'\n" })
    const opened = await call<{ id: string }>('project.open', { path: root })
    if (!opened.ok) throw new Error(opened.error.data.message)
    const projectId = opened.value.id

    expect(await call('lsp.open', { projectId, path: 'README.none' })).toEqual({ ok: true, value: {} })
    expect(await call('lsp.open', { projectId, path: '../outside.ts' })).toMatchObject({ ok: false, error: { name: 'OutsideWorkspace' } })
    expect(await call('lsp.open', { projectId, path: 'src/main.ts' })).toEqual({ ok: true, value: { server: 'typescript' } })
    const reported = (): boolean =>
      events.some((e) => e.channel === 'lsp:diagnostics' && (e.envelope.payload as LspFileDiagnostics).diagnostics.some((d) => d.code === 'TS2322'))
    await waitFor(reported, 120_000)
    const diagnostics = await call<LspFileDiagnostics[]>('lsp.diagnostics', { projectId })
    expect(diagnostics).toMatchObject({ ok: true, value: [{ path: 'src/main.ts', server: 'typescript', diagnostics: [{ code: 'TS2322', line: 1 }] }] })

    const status = await call<LspServerStatus[]>('lsp.status', { projectId })
    if (!status.ok) throw new Error(status.error.data.message)
    expect(status.value.find((s) => s.id === 'typescript')).toMatchObject({ state: 'ready', openFiles: 1 })
    expect(status.value.find((s) => s.id === 'pyright')).toMatchObject({ state: 'idle' })

    const restarted = await call<LspServerStatus>('lsp.restart', { projectId, server: 'typescript' })
    expect(restarted).toMatchObject({ ok: true, value: { state: 'ready' } })
    expect(await call('lsp.restart', { projectId, server: 'nope' })).toMatchObject({ ok: false, error: { name: 'NotFound' } })
    expect(await call('lsp.install', { projectId, server: 'typescript', allow: 'yes' })).toMatchObject({ ok: false, error: { name: 'InvalidPayload' } })
  }, 300_000)
})
