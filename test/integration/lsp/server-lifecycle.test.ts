import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { LspServerStatus } from '@shared/ipc/lsp'
import { testServices } from '../../support/services'
import { tempDir, writeTree } from '../../support/temp'
import { waitFor } from './helpers'

describe('language server lifecycle', () => {
  it('a server that keeps crashing is restarted a bounded number of times, then shown as degraded with its reason', async () => {
    const root = writeTree(tempDir(), {
      'a.brk': 'hello\n',
      'hotaru.json': JSON.stringify({
        lsp: { broken: { command: [process.execPath, '-e', 'console.error("boom: no grammar"); process.exit(3)'], extensions: ['.brk'] } },
      }),
    })
    const services = testServices({ lsp: { restartDelaysMs: [10, 10, 10] } })
    const events: LspServerStatus[] = []
    services.bus.subscribe((e) => {
      if (e.channel === 'lsp:status') events.push(e.envelope.payload as LspServerStatus)
    })
    services.trust.trust(root)
    const project = services.projects.openFolder(root)
    const lsp = await services.lsp.load(project)
    const report = await lsp.touch([join(root, 'a.brk')], { waitMs: 30_000 })
    await waitFor(() => lsp.statuses().find((s) => s.id === 'broken')?.state === 'degraded')
    const status = lsp.statuses().find((s) => s.id === 'broken')
    expect(status?.restarts).toBe(3)
    expect(status?.reason).toMatch(/code 3|boom: no grammar/)
    expect(new Set(events.filter((e) => e.state === 'restarting').map((e) => e.restarts))).toEqual(new Set([1, 2, 3]))
    expect(report.notes.join('\n')).toMatch(/broken language server (is not working|is still starting)/)
  }, 120_000)

  it('a server asked to exit as its project closes gets to finish its exit before its processes are signalled', async () => {
    const server = join(import.meta.dirname, '../../fixtures/lsp-server/quiet-server.mjs')
    const root = writeTree(tempDir(), {
      'a.q': 'text\n',
      'hotaru.json': JSON.stringify({ lsp: { quiet: { command: [process.execPath, server, 'graceful'], extensions: ['.q'] } } }),
    })
    const services = testServices()
    services.trust.trust(root)
    const project = services.projects.openFolder(root)
    const lsp = await services.lsp.load(project)
    expect(await lsp.handleFor(join(root, 'a.q'))?.ensure()).toBeDefined()
    await project.dispose()
    expect(existsSync(join(root, '.exited'))).toBe(true)
    await services.dispose()
  }, 60_000)

  it('offers to install a missing npm server, remembers a "no", and never offers with install: never', async () => {
    const root = writeTree(tempDir(), { 'a.yaml': 'a: 1\n' })
    const services = testServices({ env: { ...process.env, PATH: '/nonexistent' } })
    services.trust.trust(root)
    const project = services.projects.openFolder(root)
    const lsp = await services.lsp.load(project)
    const report = await lsp.touch([join(root, 'a.yaml')], { waitMs: 5_000 })
    const yaml = lsp.statuses().find((s) => s.id === 'yaml')
    expect(yaml).toMatchObject({ state: 'missing', install: { packages: ['yaml-language-server'], declined: false } })
    expect(report.notes[0]).toMatch(/YAML language server is not available: yaml-language-server is not installed/)
    const declined = await services.lsp.answerInstall(project, 'yaml', false)
    expect(declined).toMatchObject({ state: 'missing', install: { declined: true } })

    const never = writeTree(tempDir(), { 'a.yaml': 'a: 1\n', 'hotaru.json': JSON.stringify({ lsp: { install: 'never' } }) })
    services.trust.trust(never)
    const other = await services.lsp.load(services.projects.openFolder(never))
    await other.touch([join(never, 'a.yaml')], { waitMs: 5_000 })
    const status = other.statuses().find((s) => s.id === 'yaml')
    expect(status?.state).toBe('missing')
    expect(status?.install).toBeUndefined()
  }, 60_000)
})
