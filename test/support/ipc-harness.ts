import { join } from 'node:path'
import type { IpcResult } from '@shared/errors'
import type { BusEvent } from '../../src/main/core/bus/bus'
import { Connection, createAppRouter } from '../../src/main/ipc'
import { startFakeLlm, type FakeLlm } from '../fixtures/fake-llm'
import { testServices } from './services'
import { tempDir } from './temp'

const servers: FakeLlm[] = []

/** Closes the fake LLM servers the harnesses of this file started (call from `afterEach`). */
export async function closeIpcHarnesses(): Promise<void> {
  for (const server of servers.splice(0)) await server.close()
}

/**
 * The app's services and IPC router over one UI connection, with the Anthropic
 * provider pointed at a fresh fake LLM server and a throwaway home.
 */
export async function ipcHarness() {
  const fake = await startFakeLlm()
  servers.push(fake)
  const home = tempDir()
  const services = testServices({
    env: { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: fake.anthropicBaseURL },
  })
  const router = createAppRouter(services)
  const events: BusEvent[] = []
  const connection = new Connection('ui', (e) => events.push(e))
  services.bus.subscribe((e) => connection.offer(e))
  const call = async <T>(channel: string, payload: unknown): Promise<T> => {
    const result = (await router.handle(connection, channel, payload)) as IpcResult<T>
    if (!result.ok) throw new Error(`${channel}: ${result.error.name}: ${result.error.data.message}`)
    return result.value
  }
  /** The first event on `channel` passing `test`, already seen or still to come. */
  const next = (channel: string, test: (payload: Record<string, unknown>) => boolean = () => true, timeoutMs = 10_000) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const seen = events.find((e) => e.channel === channel && test(e.envelope.payload as Record<string, unknown>))
      if (seen) return resolve(seen.envelope.payload as Record<string, unknown>)
      const timer = setTimeout(() => reject(new Error(`no ${channel} event`)), timeoutMs)
      const off = services.bus.subscribe((e) => {
        if (e.channel === channel && test(e.envelope.payload as Record<string, unknown>)) {
          clearTimeout(timer)
          off.dispose()
          resolve(e.envelope.payload as Record<string, unknown>)
        }
      })
    })
  return { fake, services, call, next, events }
}
