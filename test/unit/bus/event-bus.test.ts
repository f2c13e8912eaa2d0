import { describe, expect, it } from 'vitest'
import { channels, eventChannel } from '@shared/ipc'
import { EventBus, type BusEvent } from '../../../src/main/core/bus/bus'
import { busEvents, checkEvent } from '../../../src/main/core/bus/event-check'
import { eventChecksWanted, loadEventCheck } from '../../../src/main/core/bus/events'
import { testServices } from '../../support/services'
import { tempDir } from '../../support/temp'

const PROJECT = 'abcdef0123456789'

describe('event bus', () => {
  it('declares exactly the events of the IPC contracts', () => {
    const declared = Object.entries(channels).flatMap(([domain, spec]) => spec.events.map((event) => eventChannel(domain, event)))
    expect([...busEvents.keys()].sort()).toEqual(declared.sort())
  })

  it('refuses, for every declared event, a payload its schema refuses: no listener sees it and no seq is used', () => {
    const bus = new EventBus({ check: checkEvent })
    const seen: BusEvent[] = []
    bus.subscribe((event) => seen.push(event))
    for (const channel of busEvents.keys()) {
      expect(() => bus.publish(channel, { unexpected: true } as never, PROJECT), channel).toThrow(
        expect.objectContaining({ name: 'InvalidEvent', message: expect.stringContaining(`${channel} payload does not match its schema`) as unknown }),
      )
    }
    expect(seen).toEqual([])
    expect(bus.publish('project:closed', { projectId: PROJECT }).envelope.seq).toBe(1)
    expect(seen.map((e) => e.channel)).toEqual(['project:closed'])
  })

  it('refuses a channel no contract declares', () => {
    const bus = new EventBus({ check: checkEvent })
    expect(() => bus.publish('fs:renamed' as never, {} as never)).toThrow(
      expect.objectContaining({ name: 'InvalidEvent', message: 'no event "fs:renamed" is declared in the IPC contracts' }),
    )
  })

  it('types channels and payloads at compile time', () => {
    const bus = new EventBus()
    // @ts-expect-error: no such event
    bus.publish('fs:renamed', {})
    // @ts-expect-error: fs:changed carries {changes, invalidated}
    bus.publish('fs:changed', { paths: ['a'] }, PROJECT)
    // @ts-expect-error: the payload of another channel
    bus.publish('project:closed', { id: PROJECT })
    bus.publish('fs:changed', { changes: [{ kind: 'created', path: 'a' }], invalidated: [] }, PROJECT)
  })

  it('hands a channel listener its own events with typed payload and envelope', () => {
    const bus = new EventBus({ check: checkEvent })
    const paths: string[] = []
    const off = bus.on('fs:changed', ({ changes }, { projectId, seq }) => paths.push(`${projectId}#${seq}:${changes.map((c) => c.path).join(',')}`))
    bus.publish('project:closed', { projectId: PROJECT }, PROJECT)
    bus.publish('fs:changed', { changes: [{ kind: 'changed', path: 'src/a.ts' }], invalidated: [] }, PROJECT)
    off.dispose()
    bus.publish('fs:changed', { changes: [{ kind: 'changed', path: 'src/b.ts' }], invalidated: [] }, PROJECT)
    expect(paths).toEqual([`${PROJECT}#2:src/a.ts`])
  })

  it('keeps a malformed fs:changed from the services that follow file changes', async () => {
    const services = testServices()
    const project = services.projects.openFolder(tempDir())
    const delivered: unknown[] = []
    services.bus.on('fs:changed', (payload) => delivered.push(payload))
    // What a caller bypassing the types could send: the config reload and the file index would read `changes`.
    expect(() => services.bus.publish('fs:changed', { paths: ['hotaru.json'] } as never, project.id)).toThrow(
      expect.objectContaining({ name: 'InvalidEvent', message: expect.stringContaining('changes') as unknown }),
    )
    expect(delivered).toEqual([])
    expect(await services.search.files(project.id)).toEqual({ files: [], truncated: false })
  })

  it('checks payloads in tests and development, and as HOTARU_CHECK_EVENTS says', () => {
    expect(eventChecksWanted({ NODE_ENV: 'test' })).toBe(true)
    expect(eventChecksWanted({ NODE_ENV: 'development' })).toBe(true)
    expect(eventChecksWanted({ NODE_ENV: 'production' })).toBe(false)
    expect(eventChecksWanted({})).toBe(false)
    expect(eventChecksWanted({ HOTARU_CHECK_EVENTS: '1' })).toBe(true)
    expect(eventChecksWanted({ NODE_ENV: 'test', HOTARU_CHECK_EVENTS: '0' })).toBe(false)
  })

  it('loads the check only when it is wanted', async () => {
    expect(await loadEventCheck({ NODE_ENV: 'test' })).toBe(checkEvent)
    expect(await loadEventCheck({})).toBeUndefined()
  })
})
