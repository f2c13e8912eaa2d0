import { describe, expect, it } from 'vitest'
import { isReadOnlyCommand } from '../../../src/main/core/permission/shell/read-only'

const cwd = process.cwd()

describe('commands that provably change no file', () => {
  it.each([
    'ls src',
    'wc -l src/app.ts src/util.ts',
    'cat src/new.ts',
    'grep -rn "TODO" src | head -20',
    'cd src && ls -la && pwd',
    'find . -name "*.ts" -type f',
    'sort -n list.txt | tail -3',
    'cat a.txt 2>/dev/null || echo missing',
    '/bin/ls -1',
    // Only .git/index may change, which checkpoints do not track.
    'git status --short',
    'git log --oneline -5 && git diff --stat HEAD~1',
  ])('%s', async (command) => {
    expect(await isReadOnlyCommand(command, cwd)).toBe(true)
  })
})

describe('commands that may change files', () => {
  it.each([
    'echo x > out.txt',
    'cat a.txt >> b.txt',
    'ls | tee listing.txt',
    'rm -f a.txt',
    'npm test',
    'git -c core.pager=x status',
    'sort --outp=sorted.txt list.txt',
    'sort --compress-program=gzip list.txt',
    'tree -o listing.txt',
    'tree -R -H . src',
    'file -C -m magic',
    'git diff --output=patch.diff',
    'git log --outp=log.txt',
    'git grep -Ovim foo',
    'rg --pre=./convert pattern',
    'find . -fls list.txt',
    './ls',
    'find . -name "*.tmp" -delete',
    'find . -exec touch {} +',
    'sort -o sorted.txt list.txt',
    'rg --pre ./convert pattern',
    'uniq in.txt out.txt',
    'ls $(mktemp)',
    '$TOOL --version',
    'echo "unclosed',
    'cat <<EOF > notes.txt\nhi\nEOF',
  ])('%s', async (command) => {
    expect(await isReadOnlyCommand(command, cwd)).toBe(false)
  })
})
