import { useEffect } from 'react'
import { useStore } from 'zustand'
import type { HotaruBridge } from '@shared/ipc'
import type { PreviewStatus } from '@shared/schema/preview'
import { background } from '../../lib/background'
import { openAddress, startServer, stopServer } from './preview-actions'
import { PreviewConsole } from './PreviewConsole'
import { PreviewFrame } from './PreviewFrame'
import { DEVICES, goPreview, type DeviceId, type PreviewStore } from './preview-store'
import { PreviewView } from './PreviewView'

interface PreviewPaneProps {
  bridge: HotaruBridge
  /** The folder previewed: the project, or the worktree whose session is on screen. */
  projectId: string
  store: PreviewStore
  /** How this client shows pages: a native view (desktop app) or an iframe (`serve`). */
  surface: 'view' | 'frame'
  onClose(): void
}

function serverText(server: PreviewStatus | null): string | null {
  if (!server) return null
  const name = server.name ? `${server.name}${server.command ? ` (${server.command})` : ''}` : 'the dev server'
  switch (server.state) {
    case 'starting':
      return `Starting ${name}…`
    case 'failed':
      return `Could not start ${name}: ${server.error ?? 'unknown reason'}`
    case 'exited':
      return `${name} exited${server.error ? `: ${server.error}` : ''}`
    // A ready server speaks through its page (or its address when no page is open); a stopped one says nothing.
    case 'ready':
    case 'stopped':
      return null
  }
}

function statusText(s: { loading: boolean; error: string | null; title: string; url: string | null; server: PreviewStatus | null }): string {
  const server = serverText(s.server)
  if (server && s.server?.state !== 'ready') return server
  if (!s.url) return s.server?.state === 'ready' && s.server.url ? `Ready at ${s.server.url}` : 'No page open'
  if (s.error) return s.error
  if (s.loading) return 'Loading…'
  return s.title || s.url
}

/** Start while nothing runs; Stop while it starts or runs. */
function ServerButton({ bridge, projectId, store, server }: { bridge: HotaruBridge; projectId: string; store: PreviewPaneProps['store']; server: PreviewStatus | null }) {
  const running = server?.state === 'ready' || server?.state === 'starting'
  return (
    <button
      type="button"
      className="ghost small"
      data-testid="preview-server"
      title={running ? 'Stop the dev server' : 'Start the dev server (.hotaru/launch.json, a dev or start script, or index.html)'}
      onClick={() => background('preview server', running ? stopServer(bridge, store, projectId) : startServer(bridge, store, projectId))}
    >
      {running ? 'Stop' : 'Start'}
    </button>
  )
}

/** Address bar, history, device presets and the page's console, over the page itself. */
export function PreviewPane({ bridge, projectId, store, surface, onClose }: PreviewPaneProps) {
  const state = useStore(store)
  const errors = state.console.filter((m) => m.level === 'error').length
  const warnings = state.console.filter((m) => m.level === 'warning').length
  const device = DEVICES[state.device]
  const go = (action: 'back' | 'forward' | 'reload'): void => goPreview(projectId, action)
  // A dev server that became ready (started here, by the agent or from the CLI) shows in a pane without a page.
  const readyUrl = state.server?.state === 'ready' ? state.server.url : undefined
  useEffect(() => {
    if (readyUrl && store.getState().url === null) background('preview open', openAddress(bridge, store, projectId, readyUrl, { typed: false }))
  }, [bridge, projectId, readyUrl, store])
  return (
    <section className="preview" aria-label="Preview" data-testid="preview-pane" data-project-id={projectId}>
      <div className="preview-toolbar" role="toolbar" aria-label="Preview">
        <button type="button" className="icon" aria-label="Back" title="Back" disabled={!state.url || !state.canGoBack} onClick={() => go('back')}>
          ←
        </button>
        <button type="button" className="icon" aria-label="Forward" title="Forward" disabled={!state.url || !state.canGoForward} onClick={() => go('forward')}>
          →
        </button>
        <button type="button" className="icon" aria-label="Reload" title="Reload" disabled={!state.url} onClick={() => go('reload')}>
          ⟳
        </button>
        <form
          className="preview-address-form"
          onSubmit={(event) => {
            event.preventDefault()
            background('preview open', openAddress(bridge, store, projectId, state.address))
          }}
        >
          <input
            className="preview-address mono"
            aria-label="Address"
            data-testid="preview-address"
            placeholder="localhost:5173"
            spellCheck={false}
            value={state.address}
            onChange={(event) => store.setState({ address: event.target.value })}
          />
        </form>
        <ServerButton bridge={bridge} projectId={projectId} store={store} server={state.server} />
        <select
          aria-label="Device"
          data-testid="preview-device"
          value={state.device}
          onChange={(event) => store.setState({ device: event.target.value as DeviceId })}
        >
          {Object.entries(DEVICES).map(([id, d]) => (
            <option key={id} value={id}>
              {d.label}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="ghost small"
          aria-pressed={state.autoReload}
          title="Reload the page when a file of the project changes"
          onClick={() => store.setState({ autoReload: !state.autoReload })}
        >
          Auto-reload
        </button>
        <button
          type="button"
          className={`ghost small preview-console-toggle${errors > 0 ? ' has-errors' : ''}`}
          aria-pressed={state.consoleOpen}
          data-testid="preview-console-toggle"
          title="The page's console errors and warnings"
          onClick={() => store.setState({ consoleOpen: !state.consoleOpen })}
        >
          ⨯ {errors} ⚠ {warnings}
        </button>
        <button type="button" className="icon" aria-label="Close preview" title="Close Preview" onClick={onClose}>
          ×
        </button>
      </div>
      <div className={`preview-status${state.error || state.server?.state === 'failed' ? ' failed' : ''}`} data-testid="preview-status" role="status">
        {statusText(state)}
      </div>
      <div className="preview-stage" data-device={state.device}>
        {state.url ? (
          <div
            className="preview-device"
            data-testid="preview-device-box"
            style={device.width ? { width: device.width, height: device.height ?? undefined, flex: 'none' } : undefined}
          >
            {surface === 'frame' ? <PreviewFrame projectId={projectId} store={store} /> : <PreviewView bridge={bridge} projectId={projectId} />}
          </div>
        ) : (
          <p className="muted preview-empty">
            Start the project’s dev server, or type the address of a local one (e.g. 5173 or localhost:3000) and press Enter.
          </p>
        )}
      </div>
      {state.consoleOpen && <PreviewConsole store={store} />}
    </section>
  )
}
