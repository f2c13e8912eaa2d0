import { describe, expect, it } from 'vitest'
import { startProcess } from '../../../src/main/core/process/spawn'

describe('startProcess with an abort signal', () => {
  it('an abort while the start is still resolving reaches the caller as the process error, not as an uncaught exception', async () => {
    const controller = new AbortController()
    const started = startProcess('sleep', ['5'], { signal: controller.signal })
    controller.abort()
    const child = await started
    const error = await new Promise<Error>((resolve) => child.once('error', resolve))
    expect(error.name).toBe('AbortError')
    const [, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('close', (code, sig) => resolve([code, sig])))
    expect(signal).toBe('SIGTERM')
  })

  it('refuses to start when the signal has already aborted', async () => {
    const controller = new AbortController()
    controller.abort()
    await expect(startProcess('true', [], { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' })
  })
})
