import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { diagnosticsAfterTool } from '../../../src/main/core/lsp/after-edit'
import { testServices } from '../../support/services'
import { tempDir, writeTree } from '../../support/temp'

const SERVER = join(import.meta.dirname, '../../fixtures/lsp-server/quiet-server.mjs')

async function editResult(mode: 'silent' | 'stuck') {
  const root = writeTree(tempDir(), {
    'a.q': 'text\n',
    'hotaru.json': JSON.stringify({ lsp: { quiet: { command: [process.execPath, SERVER, mode], extensions: ['.q'] } } }),
  })
  // The product's own cap (2 s) and quiet window.
  const services = testServices()
  services.trust.trust(root)
  const project = services.projects.openFolder(root)
  const lsp = await services.lsp.load(project)
  // The silent server is started first, so what is measured is its (missing) report, not its start.
  if (mode === 'silent') expect(await lsp.handleFor(join(root, 'a.q'))?.ensure()).toBeDefined()
  const signal = new AbortController().signal
  return diagnosticsAfterTool(lsp, { tool: 'edit', metadata: { filePath: join(root, 'a.q') }, failed: false, signal, waitMs: services.lsp.waitMs, quietMs: services.lsp.quietMs })
}

describe('the wait for diagnostics after an edit is capped', () => {
  it('a server that never reports: the result says checking did not finish within 2 s and claims nothing', async () => {
    const result = await editResult('silent')
    expect(result?.output).toBe('Diagnostics:\nThe quiet language server did not finish checking within 2 s; diagnostics may be incomplete.')
    expect(result?.metadata.diagnostics.files).toEqual([])
  }, 60_000)

  it('a server still in its handshake: the result says it is still starting', async () => {
    const result = await editResult('stuck')
    expect(result?.output).toBe('Diagnostics:\nThe quiet language server is still starting; its diagnostics are not in this result.')
  }, 60_000)
})
