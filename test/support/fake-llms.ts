import { afterEach } from 'vitest'
import { startFakeLlm, type FakeLlm, type FakeTurn } from '../fixtures/fake-llm'

const servers: FakeLlm[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close()
})

/** A fake LLM server answering with `turns`, closed after the current test. */
export async function fakeLlm(turns: FakeTurn[]): Promise<FakeLlm> {
  const server = await startFakeLlm({ turns })
  servers.push(server)
  return server
}
