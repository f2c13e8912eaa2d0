import { readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { Connection, createAppRouter } from '../../../src/main/ipc'
import { startServer, type RunningServer } from '../../../src/main/serve/server'
import { testServices } from '../../support/services'
import { tempDir, writeTree } from '../../support/temp'
import { WsClient, type Frame } from '../../support/ws-client'

const servers: RunningServer[] = []
const clients: WsClient[] = []
afterEach(async () => {
  for (const c of clients.splice(0)) c.close()
  for (const s of servers.splice(0)) await s.close()
})

function routed() {
  const services = testServices()
  const router = createAppRouter(services)
  const connection = new Connection('test', () => undefined)
  const call = (method: string, input: unknown) => router.handle(connection, method, input)
  return { services, call }
}

describe('fs, pty and layout over the router', () => {
  it('writes, creates, renames and deletes through the contract, refusing escapes', async () => {
    const { services, call } = routed()
    const outside = writeTree(tempDir(), { 'secret.txt': 's' })
    const root = writeTree(tempDir(), { 'a.txt': 'a' })
    symlinkSync(outside, join(root, 'out'))
    const { id: projectId } = services.projects.openFolder(root).info
    const read = await call('fs.read', { projectId, path: 'a.txt' })
    expect(read.ok).toBe(true)
    const mtimeMs = (read as { value: { mtimeMs: number } }).value.mtimeMs
    expect(await call('fs.write', { projectId, path: 'a.txt', content: 'saved', expectedMtimeMs: mtimeMs })).toMatchObject({ ok: true })
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('saved')
    expect(await call('fs.write', { projectId, path: 'a.txt', content: 'stale', expectedMtimeMs: mtimeMs - 10_000 })).toMatchObject({
      ok: false,
      error: { name: 'Conflict' },
    })
    expect(await call('fs.write', { projectId, path: 'out/secret.txt', content: 'x' })).toMatchObject({
      ok: false,
      error: { name: 'OutsideWorkspace' },
    })
    expect(await call('fs.write', { projectId, path: '../x', content: 'x' })).toMatchObject({ ok: false, error: { name: 'InvalidPayload' } })
    expect(await call('fs.create', { projectId, path: 'src', kind: 'dir' })).toMatchObject({ ok: true, value: { kind: 'dir' } })
    expect(await call('fs.rename', { projectId, from: 'a.txt', to: 'src/b.txt' })).toMatchObject({ ok: true, value: { path: 'src/b.txt' } })
    expect(await call('fs.delete', { projectId, path: 'src' })).toMatchObject({ ok: true, value: { deleted: true } })
    expect(await call('fs.delete', { projectId, path: '' })).toMatchObject({ ok: false, error: { name: 'InvalidPayload' } })
    expect(await call('fs.reveal', { projectId, path: '' })).toMatchObject({ ok: false, error: { name: 'Unsupported' } })
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('s')
  })

  it('reveals through the revealer where one exists, only inside the project', async () => {
    const revealed: string[] = []
    const services = testServices({ revealer: { reveal: (p) => void revealed.push(p) } })
    const router = createAppRouter(services)
    const call = (method: string, input: unknown) => router.handle(new Connection('t', () => undefined), method, input)
    const root = writeTree(tempDir(), { 'a.txt': 'a' })
    symlinkSync(tempDir(), join(root, 'out'))
    const { id: projectId } = services.projects.openFolder(root).info
    expect(await call('fs.reveal', { projectId, path: 'a.txt' })).toMatchObject({ ok: true })
    expect(await call('fs.reveal', { projectId, path: 'out/x' })).toMatchObject({ ok: false, error: { name: 'OutsideWorkspace' } })
    expect(revealed).toEqual([join(root, 'a.txt')])
  })

  it('saves and restores per-project layout and the tab order', async () => {
    const { services, call } = routed()
    const a = services.projects.openFolder(tempDir()).info.id
    const b = services.projects.openFolder(tempDir()).info.id
    expect(await call('layout.get', { projectId: a })).toEqual({ ok: true, value: null })
    const layout = {
      panels: { main: { tree: 20, center: 55, right: 25 } },
      sidebar: true,
      terminal: true,
      right: false,
      openFiles: ['src/a.ts'],
      activeFile: 'src/a.ts',
      expanded: ['src'],
      diffSideBySide: true,
    }
    expect(await call('layout.set', { projectId: a, layout })).toEqual({ ok: true, value: {} })
    expect(await call('layout.get', { projectId: a })).toEqual({ ok: true, value: layout })
    expect(await call('layout.set', { projectId: a, layout: { ...layout, openFiles: ['../x'] } })).toMatchObject({ ok: false })
    expect(await call('layout.setTabs', { order: [b, a], activeId: a })).toEqual({ ok: true, value: { order: [b, a], activeId: a } })
    expect(services.projects.list().map((p) => p.id)).toEqual([b, a])
    expect(await call('layout.getTabs', {})).toEqual({ ok: true, value: { order: [b, a], activeId: a } })
  })

  it('streams a terminal over the serve WebSocket with flow-control acks, and kills it', async () => {
    const services = testServices()
    const server = await startServer({ services, router: createAppRouter(services), rendererDir: tempDir(), port: 0 })
    servers.push(server)
    const client = await WsClient.connect(`ws://127.0.0.1:${server.port}/ws?token=${server.token}`, {
      Origin: `http://127.0.0.1:${server.port}`,
    })
    clients.push(client)
    const root = tempDir()
    writeFileSync(join(root, 'hello.txt'), 'hello from the file\n')
    const opened = (await client.call('project.open', { path: root })) as { value: { id: string } }
    const projectId = opened.value.id
    const created = (await client.call('pty.create', { projectId, cols: 80, rows: 24 })) as {
      ok: boolean
      value: { id: string; pid: number }
    }
    expect(created.ok).toBe(true)
    const { id } = created.value
    expect(await client.call('pty.write', { projectId, id, data: 'cat hello.txt\r' })).toMatchObject({ ok: true })
    const text = () =>
      client.frames
        .filter((f: Frame) => f.type === 'event' && f.channel === 'pty:data')
        .map((f) => (f.payload as { data: string }).data)
        .join('')
    const start = Date.now()
    while (!text().includes('hello from the file') && Date.now() - start < 8000) await new Promise((r) => setTimeout(r, 20))
    expect(text()).toContain('hello from the file')
    // Output comes as binary frames, each with its length in characters for the acks.
    const outputFrames = client.frames.filter((f: Frame) => f.channel === 'pty:data')
    expect(outputFrames.every((f) => f.binary === true && (f.payload as { chars: number }).chars === (f.payload as { data: string }).data.length)).toBe(true)
    expect(await client.call('pty.ack', { projectId, id, chars: text().length })).toMatchObject({ ok: true })
    expect(await client.call('pty.resize', { projectId, id, cols: 2, rows: 1 })).toMatchObject({ ok: true })
    expect(await client.call('pty.resize', { projectId, id, cols: 0, rows: 1 })).toMatchObject({ ok: false })
    const replay = (await client.call('pty.replay', { projectId, id })) as { value: { data: string; end: number } }
    expect(replay.value.data).toContain('hello from the file')
    expect(await client.call('pty.list', { projectId })).toMatchObject({ ok: true, value: [{ id, pid: created.value.pid }] })
    expect(await client.call('pty.kill', { projectId, id })).toEqual({ ok: true, value: { killed: true } })
    await client.next((f) => f.type === 'event' && f.channel === 'pty:exit')
    expect(await client.call('pty.write', { projectId, id, data: 'x' })).toMatchObject({ ok: false, error: { name: 'NotFound' } })
  })
})
