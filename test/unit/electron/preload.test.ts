import { beforeEach, describe, expect, it, vi } from 'vitest'
import { channels } from '@shared/ipc'

// The Electron binary cannot run here: the preload runs against stand-ins for
// contextBridge and ipcRenderer that record what it exposes and sends.
const exposed: Record<string, unknown> = {}
const invoke = vi.fn(async (..._args: unknown[]) => ({ ok: true, value: null }))
const handlers = new Map<string, Set<(...args: unknown[]) => void>>()
vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => (exposed[key] = api) },
  ipcRenderer: {
    invoke,
    on: (channel: string, fn: (...args: unknown[]) => void) => {
      const set = handlers.get(channel) ?? new Set()
      set.add(fn)
      handlers.set(channel, set)
    },
    off: (channel: string, fn: (...args: unknown[]) => void) => handlers.get(channel)?.delete(fn),
  },
  webUtils: { getPathForFile: () => '/dropped/path' },
}))

describe('preload bridge', () => {
  beforeEach(async () => {
    await import('../../../src/preload/index')
  })

  it('exposes one named function per contract method and event, nothing generic', () => {
    const api = exposed.hotaru as Record<string, Record<string, unknown>>
    expect(Object.keys(api).sort()).toEqual(Object.keys(channels).sort())
    for (const [domain, spec] of Object.entries(channels)) {
      const names = Object.keys(api[domain] ?? {}).sort()
      const expected = [...spec.methods, ...spec.events.map((e) => `on${e[0]?.toUpperCase()}${e.slice(1)}`)].sort()
      expect(names, domain).toEqual(expected)
      for (const name of names) expect(typeof api[domain]?.[name]).toBe('function')
    }
    expect(api).not.toHaveProperty('invoke')
    expect(api).not.toHaveProperty('on')
  })

  it('sends each method on its own channel and unsubscribes listeners', async () => {
    const api = exposed.hotaru as { project: Record<string, (arg: unknown) => unknown> }
    await api.project.open?.({ path: '/x' })
    expect(invoke).toHaveBeenCalledWith('project.open', { path: '/x' })
    const seen: unknown[] = []
    const off = api.project.onOpened?.((e: unknown) => seen.push(e)) as () => void
    for (const fn of handlers.get('project:opened') ?? []) fn({}, { seq: 1, payload: { id: 'a' } })
    off()
    for (const fn of handlers.get('project:opened') ?? []) fn({}, { seq: 2, payload: { id: 'b' } })
    expect(seen).toEqual([{ seq: 1, payload: { id: 'a' } }])
  })
})
