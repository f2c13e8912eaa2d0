import { afterEach, describe, expect, it } from 'vitest'
import { fakeProviderEnv, startServe, type Served } from '../support/cli'
import { niceness, threadNiceness } from '../support/niceness'
import { tempDir } from '../support/temp'

const running: Served[] = []
afterEach(async () => {
  for (const served of running.splice(0)) await served.stop()
})

describe.runIf(process.platform === 'linux')('hotaru serve', () => {
  it("runs V8's shared helper threads as background work, and its event loop and file pool at normal priority", async () => {
    const served = await startServe(['--port', '0'], fakeProviderEnv({ anthropicBaseURL: 'http://127.0.0.1:9', openaiBaseURL: 'http://127.0.0.1:9/v1' }, tempDir()))
    running.push(served)
    const pid = served.child.pid as number
    const threads = threadNiceness(pid)
    expect(threads.get('V8Worker')?.length).toBeGreaterThan(0)
    expect(new Set(threads.get('V8Worker'))).toEqual(new Set([10]))
    // The main thread by its id (a worker thread just starting still carries the name it inherited).
    expect(niceness(`${pid}/task/${pid}`)).toBe(0)
    expect(new Set(threads.get('libuv-worker') ?? [0])).toEqual(new Set([0]))
  })
})
