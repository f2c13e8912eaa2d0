import { describe, expect, it, vi } from 'vitest'
import { createAppRouter } from '../../../src/main/ipc'
import { testServices } from '../../support/services'
import { tempDir } from '../../support/temp'

type Handler = (event: unknown, payload: unknown) => Promise<unknown> | unknown
const registered = new Map<string, Handler>()
vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, fn: Handler) => registered.set(channel, fn),
    removeHandler: (channel: string) => registered.delete(channel),
  },
}))

const { registerIpc } = await import('../../../src/main/electron/ipc-bridge')

function fakeSender(url: string, sub = false) {
  const mainFrame = { url }
  const contents = {
    id: 1,
    mainFrame,
    sent: [] as [string, unknown][],
    isDestroyed: () => false,
    once: () => undefined,
    send(channel: string, payload: unknown) {
      this.sent.push([channel, payload])
    },
  }
  return { sender: contents, senderFrame: sub ? { url } : mainFrame }
}

describe('Electron IPC bridge', () => {
  it('registers every contract method and rejects untrusted senders before any work', async () => {
    const services = testServices({ transport: 'electron' })
    const ipc = registerIpc(services, createAppRouter(services))
    expect([...registered.keys()].sort()).toEqual(createAppRouter(services).channels.slice().sort())
    const open = registered.get('project.open') as Handler
    const root = tempDir()
    for (const event of [fakeSender('https://evil.example/'), fakeSender('app://hotaru/index.html', true), fakeSender('file:///x')]) {
      expect(await open(event, { path: root })).toMatchObject({ ok: false, error: { name: 'Forbidden' } })
    }
    expect(services.projects.list()).toEqual([])
    const trusted = fakeSender('app://hotaru/index.html')
    expect(await open(trusted, { path: root })).toMatchObject({ ok: true })
    expect(await open(trusted, { path: 5 })).toMatchObject({ ok: false, error: { name: 'InvalidPayload' } })
    expect(trusted.sender.sent.map(([channel]) => channel)).toContain('project:opened')
    ipc.dispose()
    expect(registered.size).toBe(0)
  })
})
