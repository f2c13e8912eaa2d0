import { spawn, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { endOrphanedProcesses, markedProcesses, OWNER_VARIABLE } from '../../src/main/core/process/owner-marker'
import { testServices } from '../support/services'

const linux = process.platform === 'linux'

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

function commandOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

async function until(test: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !test(); i++) await new Promise((r) => setTimeout(r, 25))
  if (!test()) throw new Error(`timed out: ${what}`)
}

describe.runIf(linux)('every process the app starts ends with it', () => {
  it('a grandchild that double-forked into its own session (setsid … &) is ended when the app shuts down', async () => {
    const services = testServices({ ownProcesses: true })
    const token = process.env[OWNER_VARIABLE]
    expect(token).toMatch(/^\d+\.\d+$/)
    // What a bash command, hook or MCP server may do: leave our process group and session, and outlive its parent.
    const parent = spawnSync('sh', ['-c', 'setsid sh -c "exec sleep 300" > /dev/null 2>&1 < /dev/null & echo $!'], { encoding: 'utf8' })
    const shPid = Number(parent.stdout.trim())
    // Found once it runs `sleep`: while `setsid` and `sh` exec their way there, its environment can read empty.
    let escaped: number[] = []
    await until(() => {
      escaped = markedProcesses()
        .filter((p) => p.owner === token && commandOf(p.pid) === 'sleep')
        .map((p) => p.pid)
      return escaped.length > 0
    }, 'the grandchild is found by its marker')
    expect(escaped.every((pid) => readFileSync(`/proc/${pid}/stat`, 'utf8').length > 0)).toBe(true)
    await services.dispose()
    await until(() => escaped.every((pid) => !alive(pid) || isZombie(pid)), 'the escaped grandchild is gone')
    expect(shPid).toBeGreaterThan(0)
  })

  it('at the next start, ends what an owner killed with SIGKILL left behind', async () => {
    const orphan = await orphanOfDeadOwner()
    expect(alive(orphan)).toBe(true)
    expect(endOrphanedProcesses()).toBeGreaterThanOrEqual(1)
    await until(() => !alive(orphan) || isZombie(orphan), 'the orphan is gone')
  })

  it('a command that ends before the start-up sweep still ends what a dead owner left behind', async () => {
    const orphan = await orphanOfDeadOwner()
    const services = testServices({ ownProcesses: true })
    // The sweep waits a moment after start (it is not on the way to the first model request); shutdown
    // does it when the command was quicker.
    await services.dispose()
    await until(() => !alive(orphan) || isZombie(orphan), 'the orphan is gone')
  })
})

/** A process marked with the token of an owner that was killed with SIGKILL. */
async function orphanOfDeadOwner(): Promise<number> {
  const owner = spawn('sleep', ['30'])
  const start = readFileSync(`/proc/${owner.pid}/stat`, 'utf8')
  const token = `${owner.pid}.${start.slice(start.lastIndexOf(')') + 2).split(' ')[19]}`
  const orphan = spawn('sh', ['-c', 'exec sleep 300'], { env: { ...process.env, [OWNER_VARIABLE]: token }, detached: true, stdio: 'ignore' })
  const exited = new Promise((r) => owner.once('exit', r))
  owner.kill('SIGKILL')
  await exited
  return orphan.pid as number
}

function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')
  } catch {
    return true
  }
}
