import { describe, expect, it } from 'vitest'
import { runHotaru } from '../../support/cli'
import { tempDir, writeTree } from '../../support/temp'
import { TS_FIXTURE } from './helpers'

function env(dataDir: string): NodeJS.ProcessEnv {
  return { ...process.env, HOTARU_DATA_DIR: dataDir, HOME: dataDir, XDG_CONFIG_HOME: `${dataDir}/config` }
}

describe('hotaru lsp', () => {
  it('diagnostics prints each error of the files as path:line:col and exits 1; --json gives the structure', async () => {
    const root = writeTree(tempDir(), { ...TS_FIXTURE, 'src/main.ts': "import { add } from './math.js'\nexport const total: number = add(1, '2')\n" })
    const data = tempDir()
    // Run from another folder: relative FILEs are in the --dir project, not the current folder.
    const text = await runHotaru(['lsp', 'diagnostics', 'src/main.ts', 'src/math.ts', '--dir', root], env(data), tempDir())
    expect(text.stdout).toMatch(/^src\/main\.ts:2:\d+ error TS2345: Argument of type 'string' is not assignable/m)
    expect(text.stdout).not.toContain('src/math.ts')
    expect(text.code).toBe(1)
    const json = await runHotaru(['lsp', 'diagnostics', `${root}/src/main.ts`, '--dir', root, '--json'], env(data))
    expect(JSON.parse(json.stdout)).toEqual([
      expect.objectContaining({ path: 'src/main.ts', server: 'typescript', diagnostics: [expect.objectContaining({ code: 'TS2345', line: 2, severity: 'error' })] }),
    ])
  }, 300_000)

  it('diagnostics of a file that does not exist is an error naming it, exit 1', async () => {
    const root = writeTree(tempDir(), { 'a.ts': 'export const a = 1\n' })
    const result = await runHotaru(['lsp', 'diagnostics', 'src/missing.ts', '--dir', root], env(tempDir()), tempDir())
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(`${root}/src/missing.ts does not exist`)
  })

  it('status lists the catalog with where each server comes from, honouring lsp config', async () => {
    const root = writeTree(tempDir(), {
      ...TS_FIXTURE,
      'hotaru.json': JSON.stringify({ lsp: { pyright: { disabled: true }, mylang: { command: ['my-ls', '--stdio'], extensions: ['.my'] } } }),
    })
    const data = tempDir()
    // A configured server command of the folder's own config runs only once the folder is trusted.
    expect((await runHotaru(['trust', '--dir', root], env(data))).code).toBe(0)
    const result = await runHotaru(['lsp', 'status', '--dir', root, '--json'], env(data))
    expect(result.code).toBe(0)
    const entries = JSON.parse(result.stdout) as Array<{ id: string; source?: string; command?: string; state: string }>
    const ids = entries.map((e) => e.id)
    expect(ids).toContain('typescript')
    expect(ids).not.toContain('pyright')
    expect(entries.find((e) => e.id === 'typescript')).toMatchObject({ source: 'bundled' })
    expect(entries.find((e) => e.id === 'mylang')).toMatchObject({ source: 'config', command: 'my-ls --stdio' })
  }, 120_000)
})
