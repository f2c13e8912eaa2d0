import { readdirSync, readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { fakeProviderEnv, startServe, type Served } from '../support/cli'
import { tempDir } from '../support/temp'

/** Niceness of each thread of a process, by thread name. */
function threadNiceness(pid: number): Map<string, number[]> {
  const byName = new Map<string, number[]>()
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim()
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
      const nice = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])
      byName.set(name, [...(byName.get(name) ?? []), nice])
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
  }
  return byName
}

const running: Served[] = []
afterEach(async () => {
  for (const served of running.splice(0)) await served.stop()
})

describe.runIf(process.platform === 'linux')('hotaru serve', () => {
  it("runs V8's shared helper threads as background work, and its event loop and file pool at normal priority", async () => {
    const served = await startServe(['--port', '0'], fakeProviderEnv({ anthropicBaseURL: 'http://127.0.0.1:9', openaiBaseURL: 'http://127.0.0.1:9/v1' }, tempDir()))
    running.push(served)
    const threads = threadNiceness(served.child.pid as number)
    expect(threads.get('V8Worker')?.length).toBeGreaterThan(0)
    expect(new Set(threads.get('V8Worker'))).toEqual(new Set([10]))
    expect(threads.get('MainThread')).toEqual([0])
    expect(new Set(threads.get('libuv-worker') ?? [0])).toEqual(new Set([0]))
  })
})
