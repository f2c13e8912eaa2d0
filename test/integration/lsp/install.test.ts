import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { testServices } from '../../support/services'
import { tempDir, writeTree } from '../../support/temp'
import { waitFor } from './helpers'

const SERVER = join(import.meta.dirname, '../../fixtures/lsp-server/quiet-server.mjs')

/**
 * An `npm` stand-in on PATH: records its arguments and "installs" a yaml-language-server
 * that is the quiet test server, so the install flow runs offline.
 */
function fakeNpm(): { bin: string; log: string } {
  const bin = tempDir('fake-npm-')
  const log = join(bin, 'args.log')
  const script = `#!/bin/sh
echo "$@" >> "${log}"
prefix=""
while [ $# -gt 0 ]; do
  if [ "$1" = "--prefix" ]; then prefix="$2"; shift; fi
  shift
done
mkdir -p "$prefix/node_modules/.bin"
printf '#!/bin/sh\\nexec "%s" "%s" silent\\n' "${process.execPath}" "${SERVER}" > "$prefix/node_modules/.bin/yaml-language-server"
chmod +x "$prefix/node_modules/.bin/yaml-language-server"
`
  writeFileSync(join(bin, 'npm'), script)
  chmodSync(join(bin, 'npm'), 0o755)
  return { bin, log }
}

describe('installing a missing server on demand', () => {
  it('installs into the data dir after a yes, remembers it for other projects, and starts the server from there', async () => {
    const npm = fakeNpm()
    // No login shell here: servers and npm are found on this PATH only.
    const env = { ...process.env, SHELL: '/nonexistent-shell', PATH: `${npm.bin}:${dirname(process.execPath)}:/usr/bin:/bin` }
    const services = testServices({ env })
    const root = writeTree(tempDir(), { 'a.yaml': 'a: 1\n' })
    const project = services.projects.openFolder(root)
    const lsp = await services.lsp.load(project)
    await lsp.touch([join(root, 'a.yaml')], { waitMs: 0 })
    await waitFor(() => lsp.statuses().find((s) => s.id === 'yaml')?.state === 'missing')
    expect(existsSync(npm.log)).toBe(false)

    const answered = await services.lsp.answerInstall(project, 'yaml', true)
    expect(answered).toMatchObject({ state: 'ready', source: 'app-data' })
    expect(readFileSync(npm.log, 'utf8')).toMatch(/^install --prefix \S+\/lsp --no-audit --no-fund --loglevel=error yaml-language-server$/m)

    // Another project uses the installed server without asking again.
    const other = writeTree(tempDir(), { 'b.yml': 'b: 2\n' })
    const second = await services.lsp.load(services.projects.openFolder(other))
    await second.touch([join(other, 'b.yml')], { waitMs: 0 })
    await waitFor(() => second.statuses().find((s) => s.id === 'yaml')?.state === 'ready', 60_000)
    expect(readFileSync(npm.log, 'utf8').trim().split('\n')).toHaveLength(1)
  }, 120_000)
})
