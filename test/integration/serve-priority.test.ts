import { afterEach, describe, expect, it } from 'vitest'
import { fakeProviderEnv, startServe, type Served } from '../support/cli'
import { threadNiceness } from '../support/niceness'
import { tempDir } from '../support/temp'

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
