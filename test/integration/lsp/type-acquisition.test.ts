import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { nativeTypescriptBinary } from '../../../src/main/core/lsp/locate'
import { useEnvironmentPath } from '../../../src/main/core/mcp/shell-path'
import { testServices } from '../../support/services'
import { tempDir, writeTree } from '../../support/temp'
import { waitFor } from './helpers'

beforeAll(() => {
  useEnvironmentPath()
})

/** An `npm` first on PATH that only notes that it ran. */
function recordingNpm(): { bin: string; log: string } {
  const bin = join(tempDir(), 'bin')
  mkdirSync(bin)
  const log = join(bin, 'npm.log')
  writeFileSync(join(bin, 'npm'), `#!/bin/sh\necho "$@" >> ${log}\n`)
  chmodSync(join(bin, 'npm'), 0o755)
  return { bin, log }
}

describe.runIf(process.platform !== 'win32' && nativeTypescriptBinary() !== undefined)('the native TypeScript server', () => {
  it('checks a JavaScript project without installing typings from npm for the packages it names', async () => {
    const npm = recordingNpm()
    const home = tempDir()
    const root = writeTree(tempDir(), {
      'package.json': JSON.stringify({ name: 'app', dependencies: { lodash: '^4.17.21', express: '^4.0.0' } }),
      'src/index.js': "import _ from 'lodash'\nimport express from 'express'\nexport const app = express()\nexport const parts = _.chunk([1, 2, 3], 2)\n",
      'src/broken.ts': 'export const n: number = "one"\n',
    })
    const services = testServices({ env: { ...process.env, HOME: home, XDG_CACHE_HOME: join(home, '.cache'), PATH: `${npm.bin}:${process.env.PATH ?? ''}` } })
    const lsp = services.lsp.for(services.projects.openFolder(root))
    const report = await lsp.touch([join(root, 'src/index.js'), join(root, 'src/broken.ts')], { waitMs: 60_000 })
    expect(report.files.flatMap((f) => f.errors.map((e) => e.message)).join('\n')).toMatch(/not assignable to type 'number'/)
    // Asked again once the project has loaded: the server had every chance to start its installs by now.
    writeFileSync(join(root, 'src/broken.ts'), 'export const n: number = 1\n')
    await lsp.touch([join(root, 'src/broken.ts')], { waitMs: 60_000 })
    await waitFor(() => lsp.statuses().find((s) => s.id === 'typescript')?.state === 'ready')
    expect(existsSync(npm.log)).toBe(false)
  }, 120_000)
})
