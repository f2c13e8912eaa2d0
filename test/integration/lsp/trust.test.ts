import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { testServices } from '../../support/services'
import { tempDir, writeTree } from '../../support/temp'
import { waitFor } from './helpers'

const SERVER = join(import.meta.dirname, '../../fixtures/lsp-server/quiet-server.mjs')

describe('language servers and workspace trust', () => {
  it('takes no server from a restricted folder\'s own node_modules, and the folder\'s own once it is trusted', async () => {
    const root = writeTree(tempDir(), { 'a.yaml': 'a: 1\n' })
    const marker = join(tempDir(), 'project-server-ran')
    const bin = join(root, 'node_modules', '.bin', 'yaml-language-server')
    mkdirSync(dirname(bin), { recursive: true })
    writeFileSync(bin, `#!/bin/sh\ntouch '${marker}'\nexec '${process.execPath}' '${SERVER}' silent\n`)
    chmodSync(bin, 0o755)
    // No login shell, no server on PATH, none installed, none of the app's own: only the project has one.
    const env = { ...process.env, SHELL: '/nonexistent-shell', PATH: `${dirname(process.execPath)}:/usr/bin:/bin` }
    const services = testServices({ env })
    const project = services.projects.openFolder(root)
    const lsp = await services.lsp.load(project)
    await lsp.touch([join(root, 'a.yaml')], { waitMs: 0 })
    await waitFor(() => lsp.statuses().find((s) => s.id === 'yaml')?.state === 'missing')
    expect(lsp.statuses().find((s) => s.id === 'yaml')?.reason).toMatch(/the folder's own yaml-language-server starts once the folder is trusted/)
    expect(existsSync(marker)).toBe(false)

    // Trusting the folder starts its own server; taking the trust back stops it.
    services.trust.trust(root)
    await waitFor(() => lsp.statuses().find((s) => s.id === 'yaml')?.state === 'ready')
    expect(lsp.statuses().find((s) => s.id === 'yaml')).toMatchObject({ source: 'project' })
    expect(existsSync(marker)).toBe(true)
    services.trust.revoke(root)
    await waitFor(() => lsp.statuses().find((s) => s.id === 'yaml')?.state === 'missing')
  }, 60_000)
})
