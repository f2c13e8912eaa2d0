import { describe, expect, it } from 'vitest'
import { createAppRouter, Connection } from '../../src/main/ipc'
import type { IpcResult } from '@shared/errors'
import type { BusEvent } from '../../src/main/core/bus/bus'
import { testServices } from '../support/services'
import { tempDir, writeTree } from '../support/temp'

function setup() {
  const services = testServices()
  const router = createAppRouter(services)
  const events: BusEvent[] = []
  const connection = new Connection('test', (e) => events.push(e))
  services.bus.subscribe((e) => connection.offer(e))
  const call = (channel: string, payload?: unknown) =>
    router.handle(connection, channel, payload) as Promise<IpcResult<{ id: string; name: string }>>
  return { services, router, connection, events, call }
}

describe('router', () => {
  it('opens a folder, lists it, and remembers it as recent', async () => {
    const { call, events } = setup()
    const root = writeTree(tempDir(), { 'src/main.ts': 'x', 'README.md': '# hi' })
    const opened = await call('project.open', { path: root })
    expect(opened.ok).toBe(true)
    if (!opened.ok) return
    expect(opened.value.name).toBe(root.split('/').at(-1))
    expect(events.map((e) => e.channel)).toContain('project:opened')

    const listing = await call('fs.list', { projectId: opened.value.id, path: '' })
    expect(listing).toMatchObject({ ok: true, value: { entries: [{ name: 'src' }, { name: 'README.md' }] } })
    const recent = await call('project.recent', {})
    expect(recent).toMatchObject({ ok: true, value: [{ id: opened.value.id, exists: true }] })
    const again = await call('project.open', { path: `${root}/` })
    expect(again).toMatchObject({ ok: true, value: { id: opened.value.id } })
    expect(await call('project.list', {})).toMatchObject({ value: [{ id: opened.value.id }] })
  })

  it('answers a payload that violates the contract with InvalidPayload and changes nothing', async () => {
    const { call, services } = setup()
    const cases: [string, unknown][] = [
      ['project.open', { path: 42 }],
      ['project.open', { path: '/tmp', extra: true }],
      ['project.open', 'not an object'],
      ['fs.list', { projectId: 'abcdef0123456789', path: '../../etc' }],
      ['project.recent', { limit: -1 }],
    ]
    for (const [channel, payload] of cases) {
      const result = await call(channel, payload)
      expect(result.ok, `${channel} ${JSON.stringify(payload)}`).toBe(false)
      if (!result.ok) {
        expect(result.error.name).toBe('InvalidPayload')
        expect(result.error.data.issues).toBeInstanceOf(Array)
      }
    }
    expect(services.projects.list()).toEqual([])
    expect(services.storage.projects.recent(10)).toEqual([])
  })

  it('reports unknown methods, missing folders and closed projects by name', async () => {
    const { call } = setup()
    expect(await call('project.explode', {})).toMatchObject({ ok: false, error: { name: 'UnknownMethod' } })
    expect(await call('project.open', { path: '/no/such/folder/here' })).toMatchObject({
      ok: false,
      error: { name: 'NotFound' },
    })
    const file = writeTree(tempDir(), { 'f.txt': '' })
    expect(await call('project.open', { path: `${file}/f.txt` })).toMatchObject({
      ok: false,
      error: { name: 'NotADirectory' },
    })
    expect(await call('fs.list', { projectId: 'abcdef0123456789', path: '' })).toMatchObject({
      ok: false,
      error: { name: 'ProjectNotOpen' },
    })
    expect(await call('project.pickFolder', {})).toMatchObject({ ok: false, error: { name: 'Unsupported' } })
  })

  it('closes a project: its instance is disposed and project events stop', async () => {
    const { call, services, events } = setup()
    const root = tempDir()
    const opened = await call('project.open', { path: root })
    if (!opened.ok) throw new Error('open failed')
    const instance = services.projects.get(opened.value.id)
    let disposed = false
    instance.disposables.addFn(() => {
      disposed = true
    })
    expect(await call('project.close', { projectId: opened.value.id })).toEqual({ ok: true, value: { closed: true } })
    expect(disposed).toBe(true)
    expect(events.at(-1)?.channel).toBe('project:closed')
    expect(await call('fs.list', { projectId: opened.value.id, path: '' })).toMatchObject({
      ok: false,
      error: { name: 'ProjectNotOpen' },
    })
  })

  it('delivers project-scoped events only to connections that show the project', async () => {
    const { services, connection, events } = setup()
    const other: BusEvent[] = []
    const bystander = new Connection('other', (e) => other.push(e))
    services.bus.subscribe((e) => bystander.offer(e))
    connection.show('abcdef0123456789')
    bystander.hide('abcdef0123456789')
    services.bus.publish('fs:changed', { changes: [{ kind: 'changed', path: 'a' }], invalidated: [] }, 'abcdef0123456789')
    expect(events.map((e) => e.channel)).toEqual(['fs:changed'])
    expect(other).toEqual([])
    const a = services.bus.publish('fs:changed', { changes: [], invalidated: ['a'] }, 'abcdef0123456789')
    expect(a.envelope.seq).toBe(2)
  })

  it('restores the open tabs of the previous run', async () => {
    const dataDir = tempDir()
    const root = tempDir()
    const first = testServices({ dataDir })
    first.projects.openFolder(root)
    await first.dispose()
    const second = testServices({ dataDir })
    const { restored, missing } = second.projects.restore()
    expect(restored.map((p) => p.root)).toHaveLength(1)
    expect(missing).toEqual([])
  })
})
