import { spawnSync } from 'node:child_process'
import { chmodSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createGlobTool } from '../../../src/main/core/tools/glob'
import { createGrepTool } from '../../../src/main/core/tools/grep'
import { readTool } from '../../../src/main/core/tools/read'
import { runTool } from '../../../src/main/core/tools/run-tool'
import { bundledRipgrep } from '../../../src/main/core/tools/search/ripgrep'
import { tempDir, writeTree } from '../../support/temp'
import { unprivilegedWrapper, withoutPermissionBypass } from '../../support/unprivileged'
import { testContext } from '../../unit/tools/context'

const rg = bundledRipgrep() as string
const locked: string[] = []

afterEach(() => {
  // The temp dir's cleanup must be able to enter what a test locked.
  for (const path of locked.splice(0)) chmodSync(path, 0o755)
})

function lock(path: string): void {
  chmodSync(path, 0)
  locked.push(path)
}

describe('grep and glob over names with newlines and bytes that are not UTF-8', () => {
  it.each([['ripgrep', rg], ['javascript fallback', null]] as const)('%s lists such names quoted, and the quoted name reads the file', async (_name, engine) => {
    const ctx = testContext()
    writeTree(ctx.root, { 'plain.txt': 'needle\n', 'new\nline.txt': 'needle here\n' })
    const glob = await runTool(createGlobTool({ rg: engine }), { pattern: '*.txt' }, ctx)
    expect(glob.output.split('\n').slice(0, 2)).toEqual(['"new\\nline.txt"', 'plain.txt'])
    expect(glob.output).toContain('JSON strings')
    const grep = await runTool(createGrepTool({ rg: engine }), { pattern: 'needle' }, ctx)
    expect(grep.output).toContain('"new\\nline.txt":\n  Line 1: needle here')
    expect(grep.output).not.toMatch(/^line\.txt/m)
    // The model decodes the JSON string it was shown and reads the real file.
    const read = await runTool(readTool, { filePath: JSON.parse('"new\\nline.txt"') as string }, ctx)
    expect(read.output).toContain('needle here')
  })

  it('ripgrep shows a name that is not UTF-8 with \\x escapes, not U+FFFD', async () => {
    const ctx = testContext()
    const name = Buffer.concat([Buffer.from('bad'), Buffer.from([0xff]), Buffer.from('.txt')])
    writeFileSync(Buffer.concat([Buffer.from(`${ctx.root}/`), name]), 'needle\n')
    const grep = await runTool(createGrepTool({ rg }), { pattern: 'needle' }, ctx)
    expect(grep.output).toContain('"bad\\xff.txt":')
  })
})

describe('grep and glob name what they could not read', () => {
  it('ripgrep (run without the permission bypass root has) names the unreadable file and folder', async () => {
    const ctx = testContext()
    writeTree(ctx.root, { 'a.txt': 'needle\n', 'secret.txt': 'needle\n', 'locked/inside.txt': 'needle\n' })
    lock(join(ctx.root, 'secret.txt'))
    lock(join(ctx.root, 'locked'))
    const unprivileged = unprivilegedWrapper(realpathSync(tempDir('hotaru-rg-')), rg)
    const grep = await runTool(createGrepTool({ rg: unprivileged }), { pattern: 'needle' }, ctx)
    expect(grep.output).toContain('Found 1 match')
    expect(grep.output).toContain('2 paths could not be read, so matches in them are not included:')
    expect(grep.output).toContain('  locked/ (Permission denied)')
    expect(grep.output).toContain('  secret.txt (Permission denied)')
    expect(grep.metadata?.['unreadable']).toBe(2)
    const glob = await runTool(createGlobTool({ rg: unprivileged }), { pattern: '*.txt' }, ctx)
    expect(glob.output).toContain('1 path could not be read, so files in it are not included:\n  locked/ (Permission denied)')
  })

  it('the JavaScript engine (in a process without the permission bypass) names them too', () => {
    const root = realpathSync(tempDir('hotaru-js-'))
    writeTree(root, { 'a.txt': 'needle\n', 'secret.txt': 'needle\n', 'locked/inside.txt': 'needle\n' })
    mkdirSync(join(root, 'open'))
    lock(join(root, 'secret.txt'))
    lock(join(root, 'locked'))
    const engine = resolve('src/main/core/tools/search')
    // The same module hooks the benchmarks use (the `@shared` alias), then the engines.
    const script = `
      await import(${JSON.stringify(resolve('bench/support/app-modules.ts'))})
      const { grepWithJs } = await import(${JSON.stringify(`${engine}/grep-engine.ts`)})
      const { globWithJs } = await import(${JSON.stringify(`${engine}/glob-engine.ts`)})
      const signal = new AbortController().signal
      const grep = grepWithJs({ root: ${JSON.stringify(root)}, searchRel: '', pattern: 'needle', keep: 10, signal })
      const glob = globWithJs({ root: ${JSON.stringify(root)}, searchRel: '', pattern: '*.txt', signal })
      console.log(JSON.stringify({ grep: grep.unreadable, total: grep.total, glob: glob.unreadable }))`
    const [command, ...prefix] = [...withoutPermissionBypass(), process.execPath]
    const run = spawnSync(command as string, [...prefix, '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' })
    expect(run.stderr).toBe('')
    const seen = JSON.parse(run.stdout) as { grep: object[]; total: number; glob: object[] }
    expect(seen.total).toBe(1)
    expect(seen.grep.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual([{ path: 'locked', reason: 'Permission denied' }, { path: 'secret.txt', reason: 'Permission denied' }])
    expect(seen.glob).toEqual([{ path: 'locked', reason: 'Permission denied' }])
  })
})

describe('grep over a very long line', () => {
  it('shows the start of the matching line and says it is cut', async () => {
    const ctx = testContext()
    const line = Buffer.alloc(4 * 1024 * 1024, 'x')
    line.write('needle\n', line.length - 7)
    writeTree(ctx.root, { 'one-line.txt': line, 'short.txt': 'a needle\n' })
    const grep = await runTool(createGrepTool({ rg }), { pattern: 'needle' }, ctx)
    expect(grep.output).toContain('Found 2 matches')
    expect(grep.output).toMatch(/one-line\.txt:\n {2}Line 1: x{2000}… \[line is too long to show; only its start is shown\]/)
    expect(grep.output).toContain('short.txt:\n  Line 1: a needle')
    expect(grep.output.length).toBeLessThan(3000)
  })
})
