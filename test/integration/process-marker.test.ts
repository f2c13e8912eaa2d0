import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { deadOwners, endOrphanedProcesses, OWNER_VARIABLE, OWNERS_FOLDER, processesOf } from '../../src/main/core/process/owner-marker'
import { testServices } from '../support/services'
import { tempDir } from '../support/temp'

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
    const dataDir = tempDir('hotaru-data-')
    const services = testServices({ ownProcesses: true, dataDir })
    const token = process.env[OWNER_VARIABLE] as string
    expect(token).toMatch(/^\d+\.\d+$/)
    // The running app is listed as an owner in its data folder, and unlisted at a clean exit.
    expect(readdirSync(join(dataDir, OWNERS_FOLDER))).toEqual([token])
    // What a bash command, hook or MCP server may do: leave our process group and session, and outlive its parent.
    const parent = spawnSync('sh', ['-c', 'setsid sh -c "exec sleep 300" > /dev/null 2>&1 < /dev/null & echo $!'], { encoding: 'utf8' })
    const shPid = Number(parent.stdout.trim())
    // Found once it runs `sleep`: while `setsid` and `sh` exec their way there, its environment can read empty.
    let escaped: number[] = []
    await until(() => {
      escaped = processesOf(token).filter((pid) => commandOf(pid) === 'sleep')
      return escaped.length > 0
    }, 'the grandchild is found by its marker')
    expect(escaped.every((pid) => readFileSync(`/proc/${pid}/stat`, 'utf8').length > 0)).toBe(true)
    await services.dispose()
    await until(() => escaped.every((pid) => !alive(pid) || isZombie(pid)), 'the escaped grandchild is gone')
    expect(shPid).toBeGreaterThan(0)
    expect(readdirSync(join(dataDir, OWNERS_FOLDER))).toEqual([])
  })

  it('a start with no dead owner listed looks at no process, and a marker in an older process is never read', async () => {
    // A process started before the owner cannot carry its marker: it is not even opened, whatever it holds.
    const older = spawn('sh', ['-c', 'exec sleep 300'], { env: { ...process.env, [OWNER_VARIABLE]: 'planted' }, detached: true, stdio: 'ignore' })
    const dataDir = tempDir('hotaru-data-')
    expect(deadOwners(dataDir)).toEqual([])
    expect(endOrphanedProcesses(dataDir)).toBe(0)
    expect(alive(older.pid as number)).toBe(true)
    // A token naming a start time later than the older process: the older one is not its process.
    const [pid, start] = (process.env[OWNER_VARIABLE] ?? `${process.pid}.0`).split('.')
    expect(processesOf(`${pid}.${Number(start) + 1_000_000_000}`)).toEqual([])
    process.kill(older.pid as number, 'SIGKILL')
  })

  it('at the next start, ends what an owner killed with SIGKILL left behind, and forgets that owner', async () => {
    const dataDir = tempDir('hotaru-data-')
    const { orphan, token } = await orphanOfDeadOwner(dataDir)
    expect(alive(orphan)).toBe(true)
    expect(deadOwners(dataDir)).toEqual([token])
    expect(endOrphanedProcesses(dataDir)).toBeGreaterThanOrEqual(1)
    await until(() => !alive(orphan) || isZombie(orphan), 'the orphan is gone')
    expect(existsSync(join(dataDir, OWNERS_FOLDER, token))).toBe(false)
  })

  it('a command that ends before the start-up sweep still ends what a dead owner left behind', async () => {
    const dataDir = tempDir('hotaru-data-')
    const { orphan } = await orphanOfDeadOwner(dataDir)
    const services = testServices({ ownProcesses: true, dataDir })
    // The sweep waits a moment after start (it is not on the way to the first model request); shutdown
    // does it when the command was quicker.
    await services.dispose()
    await until(() => !alive(orphan) || isZombie(orphan), 'the orphan is gone')
  })
})

/** A process marked with the token of an owner, listed in `dataDir`, that was killed with SIGKILL. */
async function orphanOfDeadOwner(dataDir: string): Promise<{ orphan: number; token: string }> {
  const owner = spawn('sleep', ['30'])
  const start = readFileSync(`/proc/${owner.pid}/stat`, 'utf8')
  const token = `${owner.pid}.${start.slice(start.lastIndexOf(')') + 2).split(' ')[19]}`
  mkdirSync(join(dataDir, OWNERS_FOLDER), { recursive: true })
  writeFileSync(join(dataDir, OWNERS_FOLDER, token), '')
  const orphan = spawn('sh', ['-c', 'exec sleep 300'], { env: { ...process.env, [OWNER_VARIABLE]: token }, detached: true, stdio: 'ignore' })
  const exited = new Promise((r) => owner.once('exit', r))
  owner.kill('SIGKILL')
  await exited
  return { orphan: orphan.pid as number, token }
}

function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')
  } catch {
    return true
  }
}
