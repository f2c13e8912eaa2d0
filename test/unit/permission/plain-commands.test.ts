import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { analyzeShell } from '../../../src/main/core/permission/shell/analyze'
import { bashGrammarRequested } from '../../../src/main/core/permission/shell/bash-parser'
import { tempDir, writeTree } from '../../support/temp'

/** Lines of one command of plain words: read without the grammar. */
const PLAIN = [
  'ls',
  'ls -la src',
  '  wc -l src/app.ts   src/util.ts ',
  'cat src/app.ts',
  'git status',
  'git -C .. log --oneline -5',
  'git push origin main',
  'npm run build',
  'node --version',
  'rm -rf build',
  'cp src/app.ts /tmp/x',
  'mv a b',
  'chmod +x run.sh',
  'sed -i s/a/b/ src/app.ts',
  'dd if=/dev/zero of=out.bin',
  'find . -name app.ts -delete',
  'grep -rn export src',
  'rg -n --hidden export',
  'sort --output=out.txt src/app.ts',
  'echo a=b c',
  'cd src',
  'cd ..',
  '. ./env.sh',
  'source env.sh',
  'eval ls',
  'exec ls',
  'command rm x',
  'builtin cd /',
  'timeout 5 rm x',
  'nice -n 5 git status',
  'env rm x',
  'sudo rm -rf /',
  'xargs rm',
  'kill %1',
  'python3 -m http.server 8000',
  'tee out.txt',
  'awk -f prog.awk src/app.ts',
  'git -c core.pager=sh log',
  'npx prettier --write .',
  'sh -c ls',
  'bash -c rm',
  'env sh -c ls',
  'xargs sh -c rm',
  'ln -s /etc/passwd link',
]

/** Lines that are not one command of plain words: the grammar reads them. */
const NOT_PLAIN = ['A=1 ls', 'time ls', 'export A', 'ls | wc -l', 'ls; rm x', 'echo $HOME', "echo 'a b'", 'ls *.ts', 'ls ~', 'ls # x', 'ls > out', '', `echo ${'a '.repeat(40_000)}`]

describe('a line of plain words', () => {
  it('is analyzed without loading the bash grammar', async () => {
    const root = writeTree(tempDir(), { 'src/app.ts': 'x\n' })
    for (const line of ['ls -la src', 'git status', 'rm -rf build', 'cat src/app.ts']) await analyzeShell(line, root)
    expect(bashGrammarRequested()).toBe(false)
  })

  it.each(PLAIN)('%j is analyzed as the grammar reads it', async (line) => {
    const root = writeTree(tempDir(), { 'src/app.ts': 'export const a = 1\n', 'src/util.ts': 'x\n', 'env.sh': 'A=1\n' })
    const cwd = join(root, 'src', '..')
    expect(await analyzeShell(line, cwd)).toEqual(await analyzeShell(line, cwd, { parse: 'always' }))
  })

  it.each(NOT_PLAIN.map((line) => [line.slice(0, 40), line]))('%j goes to the grammar', async (_, line) => {
    const root = tempDir()
    expect(await analyzeShell(line, root)).toEqual(await analyzeShell(line, root, { parse: 'always' }))
    expect(bashGrammarRequested()).toBe(true)
  })
})
