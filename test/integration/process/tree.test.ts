import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { describeLeft, isAlive, killTree, signal, taggedProcesses, TREE_VARIABLE, treeTag } from '../../../src/main/core/process/tree'
import { tempDir } from '../../support/temp'
import { until } from '../../support/until'

const posix = process.platform !== 'win32'
const linux = process.platform === 'linux'
const started: number[] = []

afterEach(() => {
  // Whatever a failed test left running.
  for (const pid of started.splice(0)) signal(pid, 'SIGKILL')
})

function start(script: string, env: NodeJS.ProcessEnv = process.env): ChildProcess {
  const child = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore', env })
  if (child.pid) started.push(child.pid)
  return child
}

async function pidsIn(file: string, count: number): Promise<number[]> {
  const read = (): number[] => {
    try {
      return readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map(Number)
    } catch {
      return []
    }
  }
  await until(() => read().length >= count, `${count} pids in ${file}`)
  const pids = read()
  started.push(...pids)
  return pids
}

describe.runIf(posix)('killTree', () => {
  it('ends the process, its group, a child that left the group with setsid, and (by its tag) a double-forked grandchild', async () => {
    const dir = tempDir()
    const pids = join(dir, 'pids')
    const tag = treeTag()
    const root = start(
      [
        `sleep 300 & echo $! >> ${pids}`,
        `setsid sleep 301 & echo $! >> ${pids}`,
        linux ? `(setsid sh -c 'echo $$ >> ${pids}; exec sleep 302' > /dev/null 2>&1 < /dev/null &)` : `echo 0 >> ${pids}`,
        'wait',
      ].join('; '),
      { ...process.env, [TREE_VARIABLE]: tag },
    )
    const [inGroup, ownSession, doubleForked] = (await pidsIn(pids, 3)) as [number, number, number]
    if (linux) await until(() => taggedProcesses(tag).includes(doubleForked), 'the double-forked grandchild carries the tag')
    const result = await killTree(root.pid as number, { graceMs: 1_000, tag })
    expect(result).toEqual({ left: [], notPermitted: [] })
    expect(describeLeft(result)).toBeUndefined()
    for (const pid of [root.pid as number, inGroup, ownSession, ...(linux ? [doubleForked] : [])]) expect(isAlive(pid)).toBe(false)
  })

  it.runIf(linux)('without the tag, a double-forked grandchild is not part of the tree', async () => {
    const dir = tempDir()
    const pids = join(dir, 'pids')
    const tag = treeTag()
    const root = start(`(setsid sh -c 'echo $$ >> ${pids}; exec sleep 303' > /dev/null 2>&1 < /dev/null &); sleep 300`, { ...process.env, [TREE_VARIABLE]: tag })
    const [escaped] = (await pidsIn(pids, 1)) as [number]
    await killTree(root.pid as number, { graceMs: 500 })
    expect(isAlive(escaped)).toBe(true)
    await killTree(escaped, { graceMs: 500, tag })
    expect(isAlive(escaped)).toBe(false)
  })

  it('sends SIGKILL after the grace period to a tree that ignores SIGTERM', async () => {
    const dir = tempDir()
    const pids = join(dir, 'pids')
    // An ignored signal stays ignored in children: the sleep ignores SIGTERM too.
    const root = start(`trap '' TERM; sleep 300 & echo $! >> ${pids}; wait`)
    const [child] = (await pidsIn(pids, 1)) as [number]
    expect(await killTree(root.pid as number, { graceMs: 200 })).toEqual({ left: [], notPermitted: [] })
    expect(isAlive(root.pid as number)).toBe(false)
    expect(isAlive(child)).toBe(false)
  })

  it('treats a process that is already gone (ESRCH) as ended', async () => {
    const child = spawn('true')
    await new Promise((resolve) => child.once('exit', resolve))
    const pid = child.pid as number
    expect(signal(pid, 'SIGTERM')).toBe('gone')
    expect(isAlive(pid)).toBe(false)
    expect(await killTree(pid, { graceMs: 100 })).toEqual({ left: [], notPermitted: [] })
  })
})

/**
 * EPERM: a process that exists but is not ours. Run as root, the check drops to `nobody` in a child Node
 * (through tsx, so it uses this very module) and tries to end a process root started.
 */
describe.runIf(linux && process.getuid?.() === 0 && spawnSync('setpriv', ['--version']).status === 0)('killTree and EPERM', () => {
  it('reports a process it may not signal as notPermitted, does not wait for it, and leaves it running', async () => {
    const victim = spawn('sleep', ['300'], { detached: true, stdio: 'ignore' })
    started.push(victim.pid as number)
    const module = join(process.cwd(), 'src/main/core/process/tree.ts')
    const script = `import(${JSON.stringify(module)}).then(async (m) => { const r = await m.killTree(${victim.pid}, { graceMs: 5000 }); console.log(JSON.stringify({ r, signalled: m.signal(${victim.pid}, 'SIGTERM'), alive: m.isAlive(${victim.pid}) })) })`
    const run = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, '--import', 'tsx', '-e', script], {
      cwd: process.cwd(),
      encoding: 'utf8',
      env: { ...process.env, HOME: tempDir() },
    })
    expect(run.stderr).toBe('')
    const answer = JSON.parse(run.stdout.trim()) as { r: { left: number[]; notPermitted: number[] }; signalled: string; alive: boolean }
    expect(answer.r).toEqual({ left: [], notPermitted: [victim.pid] })
    expect(answer.signalled).toBe('not-permitted')
    // Not ours to wait for: counted as not alive, so no grace period was spent on it.
    expect(answer.alive).toBe(false)
    expect(isAlive(victim.pid as number)).toBe(true)
    expect(describeLeft(answer.r)).toBe(`not ours to signal (EPERM): ${victim.pid}`)
  })
})
