// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { HotaruBridge } from '@shared/ipc'
import { PreviewPane } from '../../../src/renderer/src/features/preview/PreviewPane'
import { previewFor } from '../../../src/renderer/src/features/preview/preview-store'
import { dropProjectStore } from '../../../src/renderer/src/stores/project'

const PROJECT = 'p0123456789ab'
const FRAME_ORIGIN = 'http://p5173.localhost:4100'

/** A bridge whose preview.open answers like `serve` does; records calls and keeps event listeners to fire. */
function serveBridge() {
  const calls: { method: string; input: unknown }[] = []
  const listeners = new Map<string, (event: { projectId?: string; seq: number; payload: unknown }) => void>()
  const domain = (name: string) =>
    new Proxy(
      {},
      {
        get: (_target, method: string) => {
          if (method.startsWith('on')) {
            return (listener: (event: { projectId?: string; seq: number; payload: unknown }) => void) => {
              listeners.set(`${name}.${method}`, listener)
              return () => listeners.delete(`${name}.${method}`)
            }
          }
          return (input: { url?: string }) => {
            calls.push({ method: `${name}.${method}`, input })
            if (name === 'preview' && method === 'status') return Promise.resolve({ ok: true, value: { projectId: PROJECT, state: 'stopped' } })
            if (name === 'preview' && method === 'open') {
              const url = new URL(input.url?.includes('://') ? input.url : `http://${input.url}`)
              return Promise.resolve({ ok: true, value: { action: 'load', url: url.href, frameUrl: `${FRAME_ORIGIN}${url.pathname}` } })
            }
            return Promise.resolve({ ok: true, value: {} })
          }
        },
      },
    )
  const bridge = new Proxy({}, { get: (_t, name: string) => domain(name) }) as HotaruBridge
  return { bridge, calls, fire: (key: string, payload: unknown) => listeners.get(key)?.({ projectId: PROJECT, seq: 1, payload }) }
}

afterEach(() => {
  cleanup()
  dropProjectStore(PROJECT)
  vi.useRealTimers()
})

async function openPage(bridge: HotaruBridge): Promise<HTMLIFrameElement> {
  const store = previewFor(bridge, PROJECT)
  render(<PreviewPane bridge={bridge} projectId={PROJECT} store={store} surface="frame" onClose={() => undefined} />)
  const address = screen.getByTestId('preview-address')
  fireEvent.change(address, { target: { value: 'localhost:5173' } })
  await act(async () => {
    fireEvent.submit(address.closest('form') as HTMLFormElement)
  })
  return (await screen.findByTestId('preview-frame')) as HTMLIFrameElement
}

function postFromFrame(frame: HTMLIFrameElement, data: unknown, origin = FRAME_ORIGIN): void {
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { data, origin, source: frame.contentWindow }))
  })
}

describe('the Preview pane', () => {
  it('opens the typed address as the user’s own request and shows it in a sandboxed frame of the preview origin', async () => {
    const { bridge, calls } = serveBridge()
    const frame = await openPage(bridge)
    expect(calls).toContainEqual({ method: 'preview.open', input: { projectId: PROJECT, url: 'localhost:5173', typed: true } })
    expect(frame.getAttribute('src')).toBe(`${FRAME_ORIGIN}/`)
    expect(frame.getAttribute('sandbox')).not.toContain('allow-top-navigation')
    expect(screen.getByTestId('preview-status').textContent).toBe('Loading…')
  })

  it('lists the page’s console errors and follows its address, and ignores messages from anything but its frame', async () => {
    const { bridge } = serveBridge()
    const frame = await openPage(bridge)
    postFromFrame(frame, { hotaruPreview: 1, kind: 'console', entry: { kind: 'exception', level: 'error', text: 'TypeError: price is undefined', url: `${FRAME_ORIGIN}/app.js`, line: 3 } })
    postFromFrame(frame, { hotaruPreview: 1, kind: 'navigated', url: `${FRAME_ORIGIN}/about`, title: 'About', canGoBack: true, canGoForward: false })
    // Another origin, or a message that is not the client's, changes nothing.
    postFromFrame(frame, { hotaruPreview: 1, kind: 'console', entry: { kind: 'console', level: 'error', text: 'forged' } }, 'http://evil.localhost:4100')
    postFromFrame(frame, { hotaruPreview: 1, kind: 'console', entry: { kind: 'console', level: 'fatal', text: 'malformed' } })

    expect(screen.getByTestId('preview-console-toggle').textContent).toContain('⨯ 1')
    fireEvent.click(screen.getByTestId('preview-console-toggle'))
    const entries = screen.getAllByTestId('preview-console-entry')
    expect(entries.map((e) => e.textContent)).toEqual(['⨯TypeError: price is undefinedapp.js:3'])
    expect((screen.getByTestId('preview-address') as HTMLInputElement).value).toBe('http://localhost:5173/about')
    expect(screen.getByTestId('preview-status').textContent).toBe('About')
    expect((screen.getByRole('button', { name: 'Back' }) as HTMLButtonElement).disabled).toBe(false)
    expect((screen.getByRole('button', { name: 'Forward' }) as HTMLButtonElement).disabled).toBe(true)
  })

  it('asks the page to reload once after files of the project change, unless auto-reload is off', async () => {
    const { bridge, fire } = serveBridge()
    const frame = await openPage(bridge)
    postFromFrame(frame, { hotaruPreview: 1, kind: 'navigated', url: `${FRAME_ORIGIN}/`, title: 'Shop', canGoBack: false, canGoForward: false })
    const posted = vi.spyOn(frame.contentWindow as Window, 'postMessage')
    vi.useFakeTimers()
    const change = { changes: [{ path: 'src/app.css', kind: 'change' }], invalidated: [] }
    fire('fs.onChanged', change)
    fire('fs.onChanged', change)
    act(() => void vi.runAllTimers())
    expect(posted.mock.calls).toEqual([[{ hotaruPreview: 1, action: 'reload' }, FRAME_ORIGIN]])

    fireEvent.click(screen.getByRole('button', { name: 'Auto-reload' }))
    fire('fs.onChanged', change)
    act(() => void vi.runAllTimers())
    expect(posted).toHaveBeenCalledTimes(1)
  })

  it('lays the page out at the size of the chosen device', async () => {
    const { bridge } = serveBridge()
    await openPage(bridge)
    expect(screen.getByTestId('preview-device-box').style.width).toBe('')
    fireEvent.change(screen.getByTestId('preview-device'), { target: { value: 'phone' } })
    expect(screen.getByTestId('preview-device-box').style.width).toBe('390px')
    expect(screen.getByTestId('preview-device-box').style.height).toBe('844px')
    fireEvent.change(screen.getByTestId('preview-device'), { target: { value: 'tablet' } })
    expect(screen.getByTestId('preview-device-box').style.width).toBe('768px')
  })
})

describe('the Preview pane in the desktop app', () => {
  it('reports where the page goes, and hides it while a dialog is open or once the pane closes', async () => {
    const { bridge, calls } = serveBridge()
    const store = previewFor(bridge, PROJECT)
    store.setState({ url: 'http://localhost:5173/', address: 'http://localhost:5173/' })
    const rect = (x: number, y: number, width: number, height: number) => () => ({ x, y, left: x, top: y, width, height, right: x + width, bottom: y + height, toJSON: () => ({}) }) as DOMRect
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      // The stage clips the page: a device larger than the pane shows only what is in sight.
      if (this.classList.contains('preview-stage')) return rect(900, 80, 400, 600)()
      return rect(900, 80, 500, 844)()
    })
    globalThis.ResizeObserver ??= class {
      observe(): void {}
      disconnect(): void {}
      unobserve(): void {}
    }
    const view = render(<PreviewPane bridge={bridge} projectId={PROJECT} store={store} surface="view" onClose={() => undefined} />)
    await screen.findByTestId('preview-view')
    const bounds = () => calls.filter((c) => c.method === 'preview.bounds').map((c) => (c.input as { bounds: unknown }).bounds)
    expect(bounds()).toEqual([{ x: 900, y: 80, width: 400, height: 600 }])

    const dialog = document.createElement('div')
    dialog.setAttribute('role', 'dialog')
    await act(async () => {
      document.body.append(dialog)
      await new Promise((resolve) => setTimeout(resolve, 0))
    })
    expect(bounds().at(-1)).toBeNull()
    await act(async () => {
      dialog.remove()
      await new Promise((resolve) => setTimeout(resolve, 0))
    })
    expect(bounds().at(-1)).toEqual({ x: 900, y: 80, width: 400, height: 600 })
    view.unmount()
    expect(bounds().at(-1)).toBeNull()
    vi.restoreAllMocks()
  })
})
