// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { HotaruBridge } from '@shared/ipc'
import { installKeybindings } from '../../../src/renderer/src/features/commands'
import { installWorkspaceCommands } from '../../../src/renderer/src/features/workspace'
import { useDialogs } from '../../../src/renderer/src/features/dialogs/dialogs'
import { projectStoreFor } from '../../../src/renderer/src/stores/project'
import { useWorkspace } from '../../../src/renderer/src/stores/workspace'

/** A bridge that answers every method with an empty list and records the calls. */
function recordingBridge(calls: string[]): HotaruBridge {
  const domain = (name: string) =>
    new Proxy(
      {},
      {
        get: (_target, method: string) => {
          if (method.startsWith('on')) return () => () => undefined
          return () => {
            calls.push(`${name}.${method}`)
            return Promise.resolve({ ok: true, value: [] })
          }
        },
      },
    )
  return new Proxy({}, { get: (_target, name: string) => domain(name) }) as HotaruBridge
}

const ctrlW = (): boolean => document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'w', code: 'KeyW', ctrlKey: true, bubbles: true, cancelable: true }))
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0))

let uninstall: Array<() => void> = []
let calls: string[] = []
beforeEach(() => {
  calls = []
  const bridge = recordingBridge(calls)
  useWorkspace.setState({ bridge, connection: 'open', projects: [{ id: 'p_app', root: '/projects/app', name: 'app' }], activeId: 'p_app' })
  projectStoreFor(bridge, 'p_app', '/projects/app')
  uninstall = [installWorkspaceCommands(), installKeybindings()]
})
afterEach(() => {
  for (const off of uninstall) off()
  useDialogs.setState({ current: null })
  useWorkspace.setState({ projects: [], activeId: null, bridge: null })
})

describe('Ctrl+W', () => {
  it('closes the active editor tab, not the project tab', async () => {
    const store = projectStoreFor(recordingBridge(calls), 'p_app')
    store.getState().addOpenFile('src/main.ts', true)
    store.getState().addOpenFile('src/util.ts', true)

    ctrlW()
    await settle()
    expect(store.getState().openFiles).toEqual(['src/main.ts'])
    ctrlW()
    await settle()
    expect(store.getState().openFiles).toEqual([])
    expect(useDialogs.getState().current).toBeNull()
    expect(calls).not.toContain('project.close')
  })

  it('with no editor tab open asks before it closes the project tab', async () => {
    ctrlW()
    await settle()
    const asked = useDialogs.getState().current
    expect(asked?.kind === 'confirm' && asked.message).toBe('Close the app tab?')
    expect(calls).not.toContain('project.close')

    if (asked?.kind === 'confirm') asked.resolve(false)
    await settle()
    expect(calls).not.toContain('project.close')

    ctrlW()
    await settle()
    const again = useDialogs.getState().current
    if (again?.kind === 'confirm') again.resolve(true)
    await settle()
    expect(calls).toContain('project.close')
  })
})
