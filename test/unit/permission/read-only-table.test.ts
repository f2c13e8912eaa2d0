import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { analyzeShell } from '../../../src/main/core/permission/shell/analyze'
import { bashPermissionAsks } from '../../../src/main/core/permission/shell/bash-asks'
import { readsOnly } from '../../../src/main/core/permission/shell/validators'
import { commandEnv } from '../../../src/main/core/tools/bash/shell-env'
import { tempDir } from '../../support/temp'

describe('the table of read-only commands', () => {
  it.each([
    ['ls', ['-la1', 'src']],
    ['head', ['-5', 'a.txt']],
    ['grep', ['-A3', 'x', 'f']],
    ['grep', ['-A', '3', '-e', 'x', 'f']],
    ['sort', ['--rev', 'f']],
    ['sort', ['--re', 'f']],
    ['sort', ['-k', '2,2', '-t:', 'f']],
    ['sort', ['--field-separator=:', 'f']],
    ['uniq', ['-c', 'in.txt']],
    ['find', ['.', '-name', '*.ts', '-type', 'f', '-newermt', '2020-01-01', '-print0']],
    ['git', ['log', '--oneline', '-5', '--stat']],
    ['git', ['--no-pager', 'diff', '--name-only', 'HEAD~1']],
    ['git', ['branch', '--list', 'feat/*']],
    ['rg', ['-n', '--hidden', 'x']],
    ['echo', ['-o', 'anything']],
  ])('%s %j only reads', (program, args) => {
    expect(readsOnly(program, args)).toBe(true)
  })

  it.each([
    ['sort', ['--outp=f', 'in']],
    ['sort', ['--r', 'in']],
    ['sort', ['-ro', 'out', 'in']],
    ['sort', ['--compress-program=sh', 'in']],
    ['sort', ['--files0-from=-']],
    ['uniq', ['in', 'out']],
    ['tree', ['-R', '-H', '.']],
    ['tree', ['-o', 'f']],
    ['file', ['-C', '-m', 'f']],
    ['find', ['.', '-fls', 'f']],
    ['find', ['.', '-newer', 'x', '-delete']],
    ['git', ['diff', '--output=f']],
    ['git', ['log', '--outp=f']],
    ['git', ['grep', '-Ovim', 'x']],
    ['git', ['-c', 'core.pager=sh', 'log']],
    ['git', ['-C', '..', 'log']],
    ['git', ['branch', 'new-branch']],
    ['git', ['push']],
    ['rg', ['--pre', 'sh', 'x']],
    ['rg', ['--hidd', 'x']],
    ['rg', ['-z', 'x']],
    ['ls', ['--frobnicate']],
    ['cat', ['-X']],
    ['date', ['-s', 'now']],
    ['date', ['-f', '.env']],
    ['diff', ['-r', 'a', 'b']],
    ['diff', ['--recu', 'a', 'b']],
    ['sha256sum', ['-c', 'sums']],
    ['awk', ['{print}']],
  ])('%s %j does not', (program, args) => {
    expect(readsOnly(program, args)).toBe(false)
  })
})

describe('the line as bash runs it', () => {
  const cwd = '/p'

  it('joins backslash-newlines where bash does, and only there', async () => {
    const text = async (line: string): Promise<string[]> => (await analyzeShell(line, cwd)).commands.map((c) => c.text)
    expect(await text('find . -de\\\nlete')).toEqual(['find . -delete'])
    expect(await text('git diff\\\ntool -x cmd')).toEqual(['git difftool -x cmd'])
    expect(await text("echo 'a\\\nb'")).toEqual(['echo a\\\nb'])
    expect(await text('ls # note \\\nrm x')).toEqual(['ls', 'rm x'])
    expect(await text('echo \\\\\nls')).toEqual(['echo \\', 'ls'])
    expect(await text('cat <<EOF\n$\\\n(rm x)\nEOF')).toContain('rm x')
    expect(await text("cat <<'EOF'\n$\\\n(rm x)\nEOF")).toEqual(['cat'])
  })

  it.each(['${x#$(rm y)}', '${x##*`rm y`}', '${x%$(rm y)}', '${x%%$(rm y)}', '${x,,$(rm y)}', '${x^^$(rm y)}'])(
    'walks the pattern of echo %s',
    async (expansion) => {
      const analysis = await analyzeShell(`x=a; echo ${expansion}`, cwd)
      expect(analysis.commands.map((c) => c.text)).toContain('rm y')
    },
  )

  it('checks a glob that bash turns into an option as that option', async () => {
    const root = realpathSync(tempDir('hotaru-dash-'))
    writeFileSync(join(root, '-delete'), '')
    const analysis = await analyzeShell('find . -name t -*', root)
    expect(analysis.commands[0]).toMatchObject({ text: 'find . -name t -delete', readOnly: false })
    // Where the glob cannot be matched it stays as written, an option nobody vouches for.
    expect((await analyzeShell('find . -name t -*', '/nonexistent-dir')).commands[0]?.readOnly).toBe(false)
  })

  it('CDPATH on a cd leaves the folder unknown; commands get no CDPATH from the login shell', async () => {
    const asks = await bashPermissionAsks('CDPATH=.. cd other && cat f', '/p', '/p')
    expect(asks.find((a) => a.permission === 'external_directory')?.patterns).toEqual(['f'])
    expect(asks.find((a) => a.permission === 'bash')?.readOnly).toEqual(['cat f'])
    expect(commandEnv({ CDPATH: '/tmp', PATH: '/bin' })).not.toHaveProperty('CDPATH')
    expect((await analyzeShell('RIPGREP_CONFIG_PATH=cfg rg x', '/p')).commands[0]?.readOnly).toBe(false)
  })
})

describe('recursive readers', () => {
  let root = ''
  let outside = ''

  beforeAll(() => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), 'hotaru-recursive-')))
    root = join(base, 'proj')
    outside = join(base, 'outside')
    mkdirSync(join(root, 'src'), { recursive: true })
    mkdirSync(outside)
    writeFileSync(join(outside, 'secret.txt'), 's')
    writeFileSync(join(root, '.env'), 'K=1')
    writeFileSync(join(root, 'src', 'a.ts'), 'x')
    symlinkSync(outside, join(root, 'link'))
  })
  afterAll(() => rmSync(join(root, '..'), { recursive: true, force: true }))

  const walked = async (line: string): Promise<string[]> =>
    (await bashPermissionAsks(line, root, root)).find((a) => a.metadata?.recursive === true)?.patterns ?? []
  const external = async (line: string): Promise<string[]> =>
    (await bashPermissionAsks(line, root, root)).find((a) => a.permission === 'external_directory')?.patterns ?? []

  it('checks every file grep -r will read, .env included', async () => {
    expect((await walked('grep -r K .')).sort()).toEqual(['.env', 'src/a.ts'])
    expect(await walked('grep -r --exclude=.env K .')).toEqual(['src/a.ts'])
    expect(await walked('grep -rh K')).toContain('.env')
    expect(await external('grep -r K .')).toEqual([])
  })

  it('asks about a link out of the project that grep -R or rg -L follows', async () => {
    expect(await external('grep -R K .')).toEqual([`${outside}/*`])
    expect(await external('rg -L K')).toEqual([`${outside}/*`])
    expect(await external('find -L . -name x')).toEqual([`${outside}/*`])
    expect(await external('rg K')).toEqual([])
  })

  it('follows rg: hidden files only with --hidden or -uu', async () => {
    expect(await walked('rg K')).toEqual(['src/a.ts'])
    expect((await walked('rg --hidden K')).sort()).toEqual(['.env', 'src/a.ts'])
    expect((await walked('rg -uu K')).sort()).toEqual(['.env', 'src/a.ts'])
  })

  it('makes a run-time file list a forced read', async () => {
    const asks = await bashPermissionAsks("printf '.env\\0' | sort --files0-from=-", root, root)
    expect(asks.find((a) => a.permission === 'read')).toMatchObject({ forceAsk: true })
  })
})
