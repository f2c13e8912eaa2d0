// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { HotaruBridge } from '@shared/ipc'
import { StatusBar } from '../../../src/renderer/src/StatusBar'
import { useWorkspace } from '../../../src/renderer/src/stores/workspace'

/** A bridge where every method answers an empty list and every subscription does nothing. */
function quietBridge(): HotaruBridge {
  const domain = () =>
    new Proxy(
      {},
      {
        get: (_target, method: string) => {
          if (method.startsWith('on')) return () => () => undefined
          return () => Promise.resolve({ ok: true, value: [] })
        },
      },
    )
  return new Proxy({}, { get: () => domain() }) as HotaruBridge
}

afterEach(() => {
  cleanup()
  useWorkspace.setState({ projects: [], activeId: null, bridge: null })
})

describe('the status bar across project tabs', () => {
  it('keeps exactly one problems counter and one notices button however often the tab changes', async () => {
    const projects = [
      { id: 'p_one', root: '/projects/one', name: 'one' },
      { id: 'p_two', root: '/projects/two', name: 'two' },
      { id: 'p_three', root: '/projects/three', name: 'three' },
    ]
    useWorkspace.setState({ bridge: quietBridge(), connection: 'open', projects, activeId: 'p_one' })
    render(<StatusBar />)

    for (const id of ['p_two', 'p_one', 'p_three', 'p_two', 'p_one', 'p_three']) {
      await act(async () => useWorkspace.setState({ activeId: id }))
      expect(screen.getAllByTestId('problem-counts')).toHaveLength(1)
      expect(screen.getAllByTestId('notices-button')).toHaveLength(1)
    }
  })
})
