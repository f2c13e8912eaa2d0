import { execFileSync } from 'node:child_process'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir, writeTree } from '../../support/temp'

const REPO = resolve(import.meta.dirname, '../../..')

/**
 * Inside vitest a dynamic `import()` is served by Vite, so the app's real path (Node's
 * own loader, with `?t=` against its module cache, and tsx for TypeScript) is run
 * here in a plain Node process.
 */
const SCRIPT = `
import { utimesSync, writeFileSync } from 'node:fs'
import { importToolFile } from ${JSON.stringify(resolve(REPO, 'src/main/core/extensions/custom-tool-import.ts'))}
const [mjs, ts] = process.argv.slice(2)
const run = async (file) => (await importToolFile(file)).default.execute({})
const out = { first: await run(mjs) }
writeFileSync(mjs, 'export default { description: "v", execute: () => "two" }')
utimesSync(mjs, new Date(), new Date(Date.now() + 5000))
out.second = await run(mjs)
out.ts = await run(ts)
writeFileSync(ts, 'const n: number = 2\\nexport default { description: "t", execute: (): string => "ts" + n }')
utimesSync(ts, new Date(), new Date(Date.now() + 5000))
out.tsEdited = await run(ts)
console.log(JSON.stringify(out))
`

describe('importToolFile in plain Node', () => {
  it('re-imports an edited .mjs file and loads .ts through tsx', () => {
    const dir = tempDir('hotaru-ct-native-')
    writeTree(dir, {
      'load.mjs': SCRIPT,
      'tools/ver.mjs': 'export default { description: "v", execute: () => "one" }',
      'tools/typed.ts': 'const n: number = 1\nexport default { description: "t", execute: (): string => "ts" + n }',
    })
    const stdout = execFileSync(process.execPath, ['--import', 'tsx', resolve(dir, 'load.mjs'), resolve(dir, 'tools/ver.mjs'), resolve(dir, 'tools/typed.ts')], {
      cwd: REPO,
      encoding: 'utf8',
      timeout: 30_000,
    })
    expect(JSON.parse(stdout.trim().split('\n').at(-1) ?? '')).toEqual({ first: 'one', second: 'two', ts: 'ts1', tsEdited: 'ts2' })
  })
})
