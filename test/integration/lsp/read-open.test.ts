import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { diagnosticsAfterTool } from '../../../src/main/core/lsp/after-edit'
import { testServices } from '../../support/services'
import { tempDir, writeTree } from '../../support/temp'
import { waitFor } from './helpers'

const SERVER = join(import.meta.dirname, '../../fixtures/lsp-server/quiet-server.mjs')

describe('a read opens its file on the language server once', () => {
  it('sends the file when it is first read and when it changed on disk, never again unchanged', async () => {
    const root = writeTree(tempDir(), {
      'a.q': 'one\n',
      'hotaru.json': JSON.stringify({ lsp: { quiet: { command: [process.execPath, SERVER, 'log'], extensions: ['.q'] } } }),
    })
    const services = testServices()
    services.trust.trust(root)
    const lsp = await services.lsp.load(services.projects.openFolder(root))
    const read = () =>
      diagnosticsAfterTool(lsp, { tool: 'read', sessionId: 'ses_0000000000read', metadata: { filePath: join(root, 'a.q') }, failed: false, signal: new AbortController().signal, waitMs: 0, quietMs: 0 })
    const synced = (): string[] => (existsSync(join(root, '.synced')) ? readFileSync(join(root, '.synced'), 'utf8').trim().split('\n') : [])

    // The first read starts the server; the file is sent once it is up.
    await read()
    await waitFor(() => synced().length === 1)
    await read()
    await read()
    // Changed behind the server's back (a shell command, the user): the next read sends the new text.
    writeFileSync(join(root, 'a.q'), 'two, longer\n')
    await read()
    await waitFor(() => synced().length === 2)
    await read()
    // A request the server answers after everything sent before it: this one it answers "method not found",
    // which is all the test waits for.
    const answered = lsp.handleFor(join(root, 'a.q'))?.running()?.documentSymbols(pathToFileURL(join(root, 'a.q')).href)
    await expect(answered).rejects.toThrow(/textDocument\/documentSymbol/)
    expect(synced()).toEqual(['didOpen a.q', 'didChange a.q'])
  }, 60_000)
})
