import { existsSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { FakeTurn } from '../../fixtures/fake-llm'
import { fakeLlm } from '../../support/fake-llms'
import { fakeProviderEnv, runHotaru } from '../../support/cli'
import { gitRepo, runGit } from '../../support/git-repo'
import { tempDir, writeTree } from '../../support/temp'

const fake = fakeLlm

/** Turns that write one file of the project (reading it first when it exists, as the write tool requires). */
function writes(filePath: string, content: string, existing = false): FakeTurn[] {
  const read: FakeTurn[] = existing ? [{ toolCalls: [{ name: 'read', args: { filePath } }] }] : []
  return [...read, { toolCalls: [{ name: 'write', args: { filePath, content } }] }, { text: `wrote ${filePath}` }]
}

/** The worktree path `hotaru run --worktree` printed on stderr. */
function worktreePath(stderr: string, name: string): string {
  const match = new RegExp(`^worktree ${name}: (.+)$`, 'm').exec(stderr)
  if (!match?.[1]) throw new Error(`no worktree line for ${name} in: ${stderr}`)
  return match[1]
}

/** Processes whose working directory is inside `dir` (what a run could have left behind there). */
function processesIn(dir: string): number[] {
  const pids: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (readlinkSync(`/proc/${entry}/cwd`).startsWith(dir)) pids.push(Number(entry))
    } catch (error) {
      // A process that ended meanwhile, or one of another user: not ours.
      if (!['ENOENT', 'EACCES', 'ESRCH'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error
    }
  }
  return pids
}

describe('hotaru run --worktree and hotaru worktrees', () => {
  it('runs two worktree sessions of one project at the same time; the main tree stays unchanged', { timeout: 120_000 }, async () => {
    const dataDir = tempDir()
    const sync = tempDir('hotaru-sync-')
    const root = gitRepo({ 'README.md': 'hello\n', '.gitignore': '.env\n', '.worktreeinclude': '.env\n' })
    writeFileSync(join(root, '.env'), 'TOKEN=local\n')
    // Each turn first waits until the other one has started: both only finish if they run at once.
    const waitFor = (mine: string, other: string): FakeTurn => ({
      toolCalls: [
        {
          name: 'bash',
          args: { command: `touch ${sync}/${mine} && timeout 30 sh -c 'until [ -f ${sync}/${other} ]; do sleep 0.1; done' && touch ${sync}/${mine}-saw-${other}`, description: 'wait' },
        },
      ],
    })
    const a = await fake([waitFor('a', 'b'), ...writes('a.txt', 'from A\n')])
    const b = await fake([waitFor('b', 'a'), ...writes('b.txt', 'from B\n')])
    const [runA, runB] = await Promise.all([
      runHotaru(['run', '--dir', root, '--worktree', 'alpha', '--yes', 'make a'], fakeProviderEnv(a, dataDir)),
      runHotaru(['run', '--dir', root, '-w', 'beta', '--yes', 'make b'], fakeProviderEnv(b, dataDir)),
    ])
    expect(runA.code, runA.stderr).toBe(0)
    expect(runB.code, runB.stderr).toBe(0)
    // Each saw the other running.
    expect(readdirSync(sync).sort()).toEqual(['a', 'a-saw-b', 'b', 'b-saw-a'])
    expect(runA.stderr.split('\n')[0]).toMatch(/^worktree alpha: /)
    const alpha = worktreePath(runA.stderr, 'alpha')
    const beta = worktreePath(runB.stderr, 'beta')
    expect(readFileSync(join(alpha, 'a.txt'), 'utf8')).toBe('from A\n')
    expect(readFileSync(join(beta, 'b.txt'), 'utf8')).toBe('from B\n')
    expect(existsSync(join(alpha, 'b.txt'))).toBe(false)
    // .worktreeinclude brought the ignored .env along.
    expect(readFileSync(join(alpha, '.env'), 'utf8')).toBe('TOKEN=local\n')
    // The main tree: untouched.
    expect(runGit(root, ['status', '--porcelain'])).toBe('')
    expect(existsSync(join(root, 'a.txt'))).toBe(false)

    const env = fakeProviderEnv(a, dataDir)
    const listed = await runHotaru(['worktrees', 'list', '--dir', root, '--json'], env)
    expect(listed.code, listed.stderr).toBe(0)
    const worktrees = (JSON.parse(listed.stdout) as Array<{ name: string }>).sort((x, y) => x.name.localeCompare(y.name))
    expect(worktrees).toEqual([
      expect.objectContaining({ name: 'alpha', kind: 'git', branch: 'hotaru/alpha', path: alpha, sessions: 1, changedFiles: 1, status: 'idle' }),
      expect.objectContaining({ name: 'beta', kind: 'git', branch: 'hotaru/beta', path: beta, sessions: 1, changedFiles: 1, status: 'idle' }),
    ])
    const text = await runHotaru(['worktrees', 'list', '--dir', root], env)
    expect(text.stdout).toMatch(/^alpha\s+git\s+hotaru\/alpha\s+idle\s+1\s+1\s/m)

    const diff = await runHotaru(['worktrees', 'diff', 'alpha', '--dir', root], env)
    expect(diff.code).toBe(0)
    expect(diff.stdout).toContain('A a.txt  +1 -0')
    expect(diff.stdout).toContain('+from A')

    // Without --yes and without a terminal: the preview only.
    const previewOnly = await runHotaru(['worktrees', 'merge', 'alpha', '--dir', root], env)
    expect(previewOnly.code).toBe(3)
    expect(previewOnly.stdout).toContain('create   a.txt')
    expect(existsSync(join(root, 'a.txt'))).toBe(false)
    const merged = await runHotaru(['worktrees', 'merge', 'alpha', '--dir', root, '--yes'], env)
    expect(merged.code, merged.stderr).toBe(0)
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('from A\n')
    const undo = /Undo with: hotaru checkpoints restore (cp_\w+) --yes/.exec(merged.stdout)?.[1]
    expect(undo).toBeDefined()
    expect(merged.stdout).toContain('Branch hotaru/alpha is kept')
    const status = JSON.parse((await runHotaru(['worktrees', 'list', '--dir', root, '--json'], env)).stdout) as Array<{ name: string; status: string }>
    expect(status.find((w) => w.name === 'alpha')?.status).toBe('merged')

    // The merge is undone by its checkpoint.
    const undone = await runHotaru(['checkpoints', 'restore', undo as string, '--dir', root, '--yes'], env)
    expect(undone.code, undone.stderr).toBe(0)
    expect(existsSync(join(root, 'a.txt'))).toBe(false)
    // Its changes are unmerged again: removing it now would lose them.
    const afterUndo = JSON.parse((await runHotaru(['worktrees', 'list', '--dir', root, '--json'], env)).stdout) as Array<{ name: string; status: string }>
    expect(afterUndo.find((w) => w.name === 'alpha')?.status).toBe('idle')
    const keptAfterUndo = await runHotaru(['worktrees', 'remove', 'alpha', '--dir', root], env)
    expect(keptAfterUndo.code).toBe(1)
    expect(keptAfterUndo.stderr).toMatch(/not merged back/)

    // --continue with --worktree NAME continues that worktree's session.
    const c = await fake([{ text: 'again' }])
    const again = await runHotaru(['run', '--dir', root, '-w', 'alpha', '--continue', 'more'], fakeProviderEnv(c, dataDir))
    expect(again.code, again.stderr).toBe(0)
    expect(/session (ses_\w+)/.exec(again.stderr)?.[1]).toBe(/session (ses_\w+)/.exec(runA.stderr)?.[1])

    // Remove: beta has unmerged changes.
    const refused = await runHotaru(['worktrees', 'remove', 'beta', '--dir', root], env)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/not merged back/)
    expect(existsSync(join(beta, 'b.txt'))).toBe(true)
    const forced = await runHotaru(['worktrees', 'remove', 'beta', '--dir', root, '--force'], env)
    expect(forced.code, forced.stderr).toBe(0)
    // alpha, merged again, is removed without --force.
    const remerged = await runHotaru(['worktrees', 'merge', 'alpha', '--dir', root, '--yes'], env)
    expect(remerged.code, remerged.stderr).toBe(0)
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('from A\n')
    const removed = await runHotaru(['worktrees', 'remove', 'alpha', '--dir', root], env)
    expect(removed.code, removed.stderr).toBe(0)
    expect(existsSync(alpha)).toBe(false)
    expect(existsSync(beta)).toBe(false)
    expect(runGit(root, ['worktree', 'list']).trim().split('\n')).toHaveLength(1)
    expect(runGit(root, ['branch', '--list', 'hotaru/*'])).toBe('')
    expect(processesIn(join(dataDir, 'worktrees'))).toEqual([])
    expect((await runHotaru(['worktrees', 'list', '--dir', root], env)).stdout).toBe('No worktrees.\n')
  })

  it('a conflicting user edit blocks the merge (nothing written) until --skip-conflicts keeps the user’s file', async () => {
    const dataDir = tempDir()
    const root = gitRepo({ 'shared.txt': 'base\n', 'other.txt': 'other\n' })
    const server = await fake([
      { toolCalls: [{ name: 'read', args: { filePath: 'shared.txt' } }, { name: 'read', args: { filePath: 'other.txt' } }] },
      { toolCalls: [{ name: 'write', args: { filePath: 'shared.txt', content: 'agent\n' } }, { name: 'write', args: { filePath: 'other.txt', content: 'agent other\n' } }] },
      { text: 'done' },
    ])
    const env = fakeProviderEnv(server, dataDir)
    const run = await runHotaru(['run', '--dir', root, '-w', 'fix', '--yes', 'edit both'], env)
    expect(run.code, run.stderr).toBe(0)
    writeFileSync(join(root, 'shared.txt'), 'user\n')

    const blocked = await runHotaru(['worktrees', 'merge', 'fix', '--dir', root, '--yes'], env)
    expect(blocked.code, `${run.stderr}\n${blocked.stdout}${blocked.stderr}`).toBe(1)
    expect(blocked.stdout).toMatch(/conflict shared\.txt/)
    expect(blocked.stdout).toContain('+agent')
    expect(blocked.stdout).toContain('+user')
    expect(blocked.stderr).toMatch(/nothing written/)
    expect(readFileSync(join(root, 'other.txt'), 'utf8')).toBe('other\n')
    expect(readFileSync(join(root, 'shared.txt'), 'utf8')).toBe('user\n')

    const json = await runHotaru(['worktrees', 'merge', 'fix', '--dir', root, '--dry-run', '--json'], env)
    const preview = (JSON.parse(json.stdout) as { preview: { apply: { path: string }[]; conflicts: { path: string }[] } }).preview
    expect(preview.apply.map((a) => a.path)).toEqual(['other.txt'])
    expect(preview.conflicts.map((c) => c.path)).toEqual(['shared.txt'])

    const merged = await runHotaru(['worktrees', 'merge', 'fix', '--dir', root, '--yes', '--skip-conflicts'], env)
    expect(merged.code, merged.stderr).toBe(0)
    expect(readFileSync(join(root, 'other.txt'), 'utf8')).toBe('agent other\n')
    expect(readFileSync(join(root, 'shared.txt'), 'utf8')).toBe('user\n')
  })

  it('works in a folder that is not a git repository: a copy from the snapshot', async () => {
    const dataDir = tempDir()
    const root = writeTree(tempDir(), { 'notes.md': 'one\n', 'src/app.js': 'x\n', '.gitignore': 'local.cfg\n', 'local.cfg': 'mine\n', '.worktreeinclude': 'local.cfg\n' })
    const server = await fake(writes('src/app.js', 'y\n', true))
    const env = fakeProviderEnv(server, dataDir)
    const run = await runHotaru(['run', '--dir', root, '--worktree', '--yes', 'change the app'], env)
    expect(run.code, run.stderr).toBe(0)
    const name = /^worktree ([\w.-]+): /m.exec(run.stderr)?.[1] as string
    const path = worktreePath(run.stderr, name)
    expect(readFileSync(join(path, 'src/app.js'), 'utf8'), run.stderr).toBe('y\n')
    expect(readFileSync(join(path, 'local.cfg'), 'utf8')).toBe('mine\n')
    expect(readFileSync(join(root, 'src/app.js'), 'utf8')).toBe('x\n')

    const listed = JSON.parse((await runHotaru(['worktrees', 'list', '--dir', root, '--json'], env)).stdout) as Array<Record<string, unknown>>
    expect(listed).toEqual([expect.objectContaining({ name, kind: 'copy', branch: null, changedFiles: 1 })])
    const merged = await runHotaru(['worktrees', 'merge', name, '--dir', root, '--yes'], env)
    expect(merged.code, merged.stderr).toBe(0)
    expect(readFileSync(join(root, 'src/app.js'), 'utf8')).toBe('y\n')
    const removed = await runHotaru(['worktrees', 'remove', name, '--dir', root], env)
    expect(removed.code, removed.stderr).toBe(0)
    expect(existsSync(path)).toBe(false)
  })

  it('runs two worktree copies of one non-git folder at once', async () => {
    const dataDir = tempDir()
    const root = writeTree(tempDir(), { 'a.txt': 'a\n', 'src/b.txt': 'b\n' })
    const [one, two] = await Promise.all([fake(writes('one.txt', '1\n')), fake(writes('two.txt', '2\n'))])
    const [runOne, runTwo] = await Promise.all([
      runHotaru(['run', '--dir', root, '-w', 'one', '--yes', 'write one'], fakeProviderEnv(one, dataDir)),
      runHotaru(['run', '--dir', root, '-w', 'two', '--yes', 'write two'], fakeProviderEnv(two, dataDir)),
    ])
    expect(runOne.code, runOne.stderr).toBe(0)
    expect(runTwo.code, runTwo.stderr).toBe(0)
    expect(readFileSync(join(worktreePath(runOne.stderr, 'one'), 'one.txt'), 'utf8')).toBe('1\n')
    expect(readFileSync(join(worktreePath(runTwo.stderr, 'two'), 'two.txt'), 'utf8')).toBe('2\n')
    expect(readdirSync(root).sort()).toEqual(['a.txt', 'src'])
  })

  it('lists a worktree whose turn runs in another process as running, and will not remove it under that turn', async () => {
    const dataDir = tempDir()
    const sync = tempDir('hotaru-sync-')
    const root = gitRepo({ 'a.txt': 'a\n' })
    const server = await fake([
      { toolCalls: [{ name: 'bash', args: { command: `touch ${sync}/started && timeout 30 sh -c 'until [ -f ${sync}/go ]; do sleep 0.1; done'`, description: 'wait' } }] },
      { text: 'done' },
    ])
    const env = fakeProviderEnv(server, dataDir)
    const running = runHotaru(['run', '--dir', root, '-w', 'slow', '--yes', 'take your time'], env)
    for (let i = 0; i < 300 && !existsSync(join(sync, 'started')); i++) await new Promise((r) => setTimeout(r, 100))
    const listed = JSON.parse((await runHotaru(['worktrees', 'list', '--dir', root, '--json'], env)).stdout) as Array<{ name: string; status: string }>
    expect(listed).toEqual([expect.objectContaining({ name: 'slow', status: 'running' })])
    const refused = await runHotaru(['worktrees', 'remove', 'slow', '--dir', root], env)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/a turn runs in worktree "slow"/)
    const early = await runHotaru(['worktrees', 'merge', 'slow', '--dir', root, '--yes'], env)
    expect(early.code).toBe(1)
    expect(early.stderr).toMatch(/merge it when the turn has ended/)
    writeFileSync(join(sync, 'go'), '')
    expect((await running).code).toBe(0)
    const after = JSON.parse((await runHotaru(['worktrees', 'list', '--dir', root, '--json'], env)).stdout) as Array<{ status: string }>
    expect(after[0]?.status).toBe('idle')
  })
})
