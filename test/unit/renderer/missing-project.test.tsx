// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { HotaruBridge } from '@shared/ipc'
import type { ProjectPresence } from '@shared/ipc/project'
import type { ProjectInfo } from '@shared/schema/project'
import { ProjectTabs } from '../../../src/renderer/src/features/tabs'
import { MissingProject } from '../../../src/renderer/src/features/workspace/MissingProject'
import { OpenPathDialog } from '../../../src/renderer/src/features/workspace/OpenPathDialog'
import { useWorkspace, workspace } from '../../../src/renderer/src/stores/workspace'

const first: ProjectInfo = { id: 'p_first', root: '/projects/first', name: 'first' }
const app: ProjectInfo = { id: 'p_app', root: '/projects/app', name: 'app' }
const last: ProjectInfo = { id: 'p_last', root: '/projects/last', name: 'last' }
const moved: ProjectInfo = { id: 'p_moved', root: '/projects/app-moved', name: 'app-moved' }

interface Harness {
  bridge: HotaruBridge
  calls: Array<{ method: string; input: unknown }>
  presence(payload: ProjectPresence): void
}

/** A bridge as `hotaru serve` answers it (no native folder dialog), with the presence subscription in the test's hands. */
function harness(projects: ProjectInfo[]): Harness {
  const calls: Harness['calls'] = []
  let onPresence: (event: { payload: ProjectPresence }) => void = () => {}
  const answers: Record<string, unknown> = {
    'app.info': { capabilities: { pickFolder: false } },
    'project.list': projects,
    'project.locate': moved,
    'project.close': { closed: true },
    'layout.getTabs': { order: projects.map((p) => p.id), activeId: projects[0]?.id ?? null },
  }
  const domain = (name: string) =>
    new Proxy(
      {},
      {
        get: (_target, method: string) => {
          if (name === 'project' && method === 'onPresence')
            return (listener: typeof onPresence) => {
              onPresence = listener
              return () => undefined
            }
          if (method.startsWith('on')) return () => () => undefined
          return (input: unknown) => {
            calls.push({ method: `${name}.${method}`, input })
            return Promise.resolve({ ok: true, value: answers[`${name}.${method}`] ?? [] })
          }
        },
      },
    )
  const bridge = new Proxy({}, { get: (_target, name: string) => domain(name) }) as HotaruBridge
  return { bridge, calls, presence: (payload) => onPresence({ payload }) }
}

const tab = (id: string): HTMLElement => {
  const found = document.querySelector<HTMLElement>(`[role="tab"][data-project-id="${id}"]`)
  if (!found) throw new Error(`no tab ${id}`)
  return found
}

afterEach(() => {
  cleanup()
  useWorkspace.setState({ projects: [], activeId: null, bridge: null, missing: {}, openPath: null, info: undefined })
})

describe('a project whose folder is missing', () => {
  it('marks its tab with a warning while missing and recovers when the folder is back', async () => {
    const h = harness([first, app])
    await act(() => workspace.init(h.bridge))
    render(<ProjectTabs />)
    expect(tab('p_app').dataset.missing).toBe('false')

    act(() => h.presence({ projectId: 'p_app', root: app.root, state: 'missing' }))
    expect(tab('p_app').dataset.missing).toBe('true')
    expect(tab('p_app').querySelector('.codicon-warning')?.getAttribute('aria-label')).toBe('folder missing')
    expect(tab('p_app').title).toBe('/projects/app — the folder is missing')
    expect(tab('p_first').dataset.missing).toBe('false')

    act(() => h.presence({ projectId: 'p_app', root: app.root, state: 'present' }))
    expect(tab('p_app').dataset.missing).toBe('false')
    expect(tab('p_app').querySelector('.codicon-warning')).toBeNull()
  })

  it('is shown missing from the list when the client connects after the folder went', async () => {
    const h = harness([{ ...app, missing: true }])
    await act(() => workspace.init(h.bridge))
    render(<ProjectTabs />)
    expect(tab('p_app').dataset.missing).toBe('true')
  })

  it('says which folder is gone, and Locate… reopens it at the typed path in the same tab position', async () => {
    const h = harness([first, app, last])
    await act(() => workspace.init(h.bridge))
    render(
      <>
        <ProjectTabs />
        <MissingProject project={app} />
        <OpenPathDialog />
      </>,
    )
    expect(screen.getByTestId('missing-project').textContent).toContain('The folder /projects/app is no longer there')

    fireEvent.click(screen.getByRole('button', { name: 'Locate…' }))
    const input = await screen.findByTestId('open-path-dialog-input')
    expect((input as HTMLInputElement).value).toBe('/projects/app')
    fireEvent.change(input, { target: { value: '/projects/app-moved' } })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Locate' }))
      await new Promise((resolve) => setTimeout(resolve, 0))
    })

    expect(h.calls.find((c) => c.method === 'project.locate')?.input).toEqual({ projectId: 'p_app', path: '/projects/app-moved' })
    expect(useWorkspace.getState().projects.map((p) => p.id)).toEqual(['p_first', 'p_moved', 'p_last'])
    expect(useWorkspace.getState().activeId).toBe('p_moved')
    expect(screen.queryByTestId('open-path-dialog')).toBeNull()
  })

  it('closes the tab with Close', async () => {
    const h = harness([app])
    await act(() => workspace.init(h.bridge))
    render(<MissingProject project={app} />)
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Close' }))
      await new Promise((resolve) => setTimeout(resolve, 0))
    })
    expect(h.calls.find((c) => c.method === 'project.close')?.input).toEqual({ projectId: 'p_app' })
  })
})
