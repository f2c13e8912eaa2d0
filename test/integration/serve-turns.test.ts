import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createAppRouter } from '../../src/main/ipc'
import { startServer, type RunningServer } from '../../src/main/serve/server'
import { startFakeLlm, type FakeLlm } from '../fixtures/fake-llm'
import { testServices } from '../support/services'
import { tempDir, writeTree } from '../support/temp'
import { WsClient, type Frame } from '../support/ws-client'

const closers: (RunningServer | FakeLlm)[] = []
afterEach(async () => {
  for (const c of closers.splice(0)) await c.close()
})

async function serveWithModel() {
  const fake = await startFakeLlm()
  closers.push(fake)
  const home = tempDir()
  const services = testServices({
    env: { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: fake.anthropicBaseURL },
  })
  const rendererDir = writeTree(tempDir(), { 'index.html': '<html><body>ui</body></html>' })
  const server = await startServer({ services, router: createAppRouter(services), rendererDir, port: 0 })
  closers.push(server)
  const origin = `http://127.0.0.1:${server.port}`
  const client = await WsClient.connect(`ws://127.0.0.1:${server.port}/ws?token=${server.token}`, { Origin: origin })
  return { fake, services, client }
}

const turnEnded = (f: Frame): boolean => f.type === 'event' && f.channel === 'agent:turnEnded'

describe('turns through hotaru serve', () => {
  it('survives deleting a session while its first turn runs and a second prompt waits', async () => {
    const { fake, client } = await serveWithModel()
    const rejections: unknown[] = []
    const onRejection = (reason: unknown): void => {
      rejections.push(reason)
    }
    process.on('unhandledRejection', onRejection)
    try {
      const project = (await client.call('project.open', { path: tempDir() })).value as { id: string }
      const session = (await client.call('session.create', { projectId: project.id })).value as { id: string }
      fake.enqueue({ text: Array.from({ length: 200 }, () => 'slow '), dripMs: 30 }, { text: 'never asked for' })
      const first = await client.call('agent.prompt', { sessionId: session.id, text: 'first' })
      expect(first).toMatchObject({ ok: true, value: { queued: false, messageId: expect.stringMatching(/^msg_/) } })
      await client.next((f) => f.type === 'event' && f.channel === 'session:delta')
      const second = client.call('agent.prompt', { sessionId: session.id, text: 'second (queued)' })
      expect(await client.call('session.delete', { sessionId: session.id })).toMatchObject({ ok: true, value: { deleted: true } })
      // The queued prompt never ran: its call answers with an error instead of a message id.
      const queued = await second
      expect(queued.ok).toBe(false)
      await client.next((f) => turnEnded(f) && client.frames.filter(turnEnded).length >= 2)
      const ends = client.frames.filter(turnEnded).map((f) => (f.payload as { status: string; error?: { data: { message: string } } }))
      expect(ends.map((e) => e.status)).toEqual(['aborted', 'aborted'])
      expect(ends[1]?.error?.data.message).toBe('the session was deleted')
      // Still serving, and nothing went unhandled.
      expect(await client.call('app.info', {})).toMatchObject({ ok: true })
      expect(fake.requests).toHaveLength(1)
      expect(rejections).toEqual([])
    } finally {
      process.off('unhandledRejection', onRejection)
      client.close()
    }
  })
})
