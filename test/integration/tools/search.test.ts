import { describe, expect, it } from 'vitest'
import { createGlobTool } from '../../../src/main/core/tools/glob'
import { createGrepTool } from '../../../src/main/core/tools/grep'
import { listTool } from '../../../src/main/core/tools/list'
import { runTool } from '../../../src/main/core/tools/run-tool'
import { bundledRipgrep } from '../../../src/main/core/tools/search/ripgrep'
import { writeTree } from '../../support/temp'
import { testContext } from '../../unit/tools/context'

const TREE = {
  '.gitignore': 'dist/\n*.log\n',
  'src/a.ts': 'export const needle = 1\nconst other = 2\n',
  'src/b.tsx': 'const needle = "b"\n',
  'src/nested/.gitignore': 'generated.ts\n',
  'src/nested/generated.ts': 'const needle = "gen"\n',
  'src/nested/kept.ts': 'no match here\n',
  'dist/out.ts': 'const needle = "dist"\n',
  'debug.log': 'needle in log\n',
  'node_modules/pkg/index.ts': 'needle\n',
  '.github/workflow.yml': 'needle: yes\n',
  'bin.dat': Buffer.from([0, 110, 101, 101, 100, 108, 101]),
}

const engines: Array<[string, string | null]> = [
  ['ripgrep', bundledRipgrep()],
  ['javascript fallback', null],
]

describe.each(engines)('grep and glob with %s', (_name, rg) => {
  it('ripgrep is bundled', () => {
    if (_name === 'ripgrep') expect(rg).not.toBeNull()
  })

  it('grep finds matches, honouring .gitignore (nested too) and skipping binaries', async () => {
    const ctx = testContext()
    writeTree(ctx.root, TREE)
    const result = await runTool(createGrepTool({ rg }), { pattern: 'needle' }, ctx)
    expect(result.error).toBeUndefined()
    expect(result.output).toContain('Found 3 matches')
    expect(result.output).toMatch(/\.github\/workflow\.yml:\n {2}Line 1: needle: yes/)
    expect(result.output).toMatch(/src\/a\.ts:\n {2}Line 1: export const needle = 1/)
    expect(result.output).toContain('src/b.tsx:')
    for (const hidden of ['dist/', 'debug.log', 'generated.ts', 'node_modules', 'bin.dat']) expect(result.output).not.toContain(hidden)
  })

  it('grep narrows by path and include', async () => {
    const ctx = testContext()
    writeTree(ctx.root, TREE)
    const result = await runTool(createGrepTool({ rg }), { pattern: 'need.e', path: 'src', include: '*.tsx' }, ctx)
    expect(result.output).toContain('Found 1 match')
    expect(result.output).toContain('src/b.tsx')
    const none = await runTool(createGrepTool({ rg }), { pattern: 'zzz_absent' }, ctx)
    expect(none.output).toBe('No matches found.')
  })

  it('glob respects .gitignore and matches names at any depth', async () => {
    const ctx = testContext()
    writeTree(ctx.root, TREE)
    const result = await runTool(createGlobTool({ rg }), { pattern: '*.ts' }, ctx)
    expect(result.output.split('\n')).toEqual(['src/a.ts', 'src/nested/kept.ts'])
    const scoped = await runTool(createGlobTool({ rg }), { pattern: '**/*.ts', path: 'src/nested' }, ctx)
    expect(scoped.output).toBe('src/nested/kept.ts')
    const tsx = await runTool(createGlobTool({ rg }), { pattern: 'src/**/*.{ts,tsx}' }, ctx)
    expect(tsx.output.split('\n')).toEqual(['src/a.ts', 'src/b.tsx', 'src/nested/kept.ts'])
  })
})

describe('grep errors', () => {
  it('reports an invalid regex as a message', async () => {
    const ctx = testContext()
    writeTree(ctx.root, TREE)
    expect((await runTool(createGrepTool({ rg: null }), { pattern: '(' }, ctx)).output).toMatch(/not a valid regular expression/)
    expect((await runTool(createGrepTool(), { pattern: '(' }, ctx)).output).toMatch(/grep failed/)
  })
})

describe('list', () => {
  it('shows a tree, folders first, without ignored entries', async () => {
    const ctx = testContext()
    writeTree(ctx.root, TREE)
    const result = await runTool(listTool, {}, ctx)
    expect(result.output).toBe(
      ['./', '  .github/', '    workflow.yml', '  src/', '    nested/', '      .gitignore', '      kept.ts', '    a.ts', '    b.tsx', '  .gitignore', '  bin.dat'].join('\n'),
    )
    const filtered = await runTool(listTool, { path: 'src', ignore: ['nested/'] }, ctx)
    expect(filtered.output).toBe(['src/', '  a.ts', '  b.tsx'].join('\n'))
  })
})
