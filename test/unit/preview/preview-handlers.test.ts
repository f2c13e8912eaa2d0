import { describe, expect, it } from 'vitest'
import type { PreviewBounds } from '@shared/ipc/preview'
import { Connection, createAppRouter, type PreviewSurface } from '../../../src/main/ipc'
import { testServices } from '../../support/services'
import { tempDir } from '../../support/temp'

/** A surface that records what it was asked to show, like the app's window would. */
function recordingSurface(withBrowser: boolean) {
  const opened: { projectId: string; url: string; allows: (url: string) => boolean }[] = []
  const external: string[] = []
  const bounds: (PreviewBounds | null)[] = []
  const surface: PreviewSurface = {
    open: async (projectId, url, allows) => {
      opened.push({ projectId, url: url.href, allows })
      return null
    },
    bounds: (_projectId, b) => void bounds.push(b),
    go: () => undefined,
    close: () => undefined,
    ...(withBrowser ? { openExternal: async (url: URL) => void external.push(url.href) } : {}),
  }
  return { surface, opened, external, bounds }
}

function setup(surface?: PreviewSurface) {
  const services = testServices()
  const router = createAppRouter(services)
  const connection = new Connection('ui', () => undefined)
  if (surface) connection.preview = surface
  const project = services.projects.openFolder(tempDir('hotaru-preview-project-'))
  const call = (method: string, input: Record<string, unknown>) => router.handle(connection, `preview.${method}`, { projectId: project.id, ...input })
  return { services, project, call }
}

describe('preview IPC', () => {
  it('loads a typed loopback address on the surface, whose page may then reach that origin and the worktree’s own ports', async () => {
    const recorded = recordingSurface(true)
    const { project, call, services } = setup(recorded.surface)
    project.setPorts({ first: 41000, last: 41002 })
    expect(await call('open', { url: 'localhost:5173/app', typed: true })).toEqual({
      ok: true,
      value: { action: 'load', url: 'http://localhost:5173/app', frameUrl: null },
    })
    expect(recorded.opened.map(({ projectId, url }) => ({ projectId, url }))).toEqual([{ projectId: project.id, url: 'http://localhost:5173/app' }])
    const allows = recorded.opened[0]!.allows
    expect(allows('http://localhost:5173/other')).toBe(true)
    expect(allows('http://127.0.0.1:41002/')).toBe(true)
    expect(allows('http://127.0.0.1:6379/')).toBe(false)
    expect(allows('https://example.com/')).toBe(false)
    // The agent's browser follows the same policy: the typed origin is the preview's now.
    expect(services.previews.for(project).urls.allows('http://localhost:5173/')).toBe(true)
    expect(await call('bounds', { bounds: { x: 10, y: 20, width: 300, height: 200 } })).toMatchObject({ ok: true })
    expect(await call('bounds', { bounds: null })).toMatchObject({ ok: true })
    expect(recorded.bounds).toEqual([{ x: 10, y: 20, width: 300, height: 200 }, null])
  })

  it('opens another site in the system browser where there is one, and leaves it to a browser client otherwise', async () => {
    const app = recordingSurface(true)
    expect(await setup(app.surface).call('open', { url: 'example.com/docs', typed: true })).toEqual({
      ok: true,
      value: { action: 'opened', url: 'https://example.com/docs' },
    })
    expect(app.external).toEqual(['https://example.com/docs'])
    expect(app.opened).toEqual([])
    const browser = recordingSurface(false)
    expect(await setup(browser.surface).call('open', { url: 'https://example.com/', typed: true })).toEqual({
      ok: true,
      value: { action: 'external', url: 'https://example.com/' },
    })
  })

  it('does not load a loopback page the user did not type and the preview does not own', async () => {
    const recorded = recordingSurface(false)
    expect(await setup(recorded.surface).call('open', { url: 'http://127.0.0.1:6379/' })).toEqual({
      ok: true,
      value: { action: 'external', url: 'http://127.0.0.1:6379/' },
    })
    expect(recorded.opened).toEqual([])
  })

  it('refuses a page that is not http(s), and a client without a surface', async () => {
    const recorded = recordingSurface(true)
    const refused = await setup(recorded.surface).call('open', { url: 'javascript:alert(1)', typed: true })
    expect(refused).toMatchObject({ ok: false, error: { name: 'InvalidPayload', data: { message: expect.stringContaining('http') as unknown } } })
    expect(recorded.opened).toEqual([])
    expect(recorded.external).toEqual([])
    expect(await setup().call('open', { url: 'localhost:3000', typed: true })).toMatchObject({ ok: false, error: { name: 'Unsupported' } })
  })
})
