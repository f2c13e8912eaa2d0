import { useEffect, useState } from 'react'
import type { HotaruBridge } from '@shared/ipc'
import type { SandboxStatus } from '@shared/ipc/sandbox'
import { Icon } from '../../components/Icon'
import { ShieldIcon } from '../../components/ShieldIcon'
import { errorMessage, unwrap } from '../../ipc'
import { background } from '../../lib/background'

const BACKEND: Record<SandboxStatus['backend'], string> = { bubblewrap: 'bubblewrap', seatbelt: 'the macOS sandbox (sandbox-exec)', none: 'nothing' }

function state(status: SandboxStatus): { label: string; tone: 'ok' | 'off' | 'bad' } {
  if (status.enabled && !status.available) return { label: 'On, but it cannot run here: commands are refused', tone: 'bad' }
  if (status.enabled) return { label: `On, using ${BACKEND[status.backend]}`, tone: 'ok' }
  if (status.available) return { label: `Off — available on this computer (${BACKEND[status.backend]})`, tone: 'off' }
  return { label: 'Off — not available on this computer', tone: 'off' }
}

/** Why the switch and the state disagree: another settings layer decides. */
function lockNote(status: SandboxStatus): string | null {
  if (!status.user || status.user.enabled === status.enabled) return null
  return status.enabled
    ? 'This project’s own settings (or your organization’s) keep the sandbox on here; your choice applies to other projects.'
    : 'Your organization’s settings (or the environment the app was started in) keep the sandbox off.'
}

function PathList({ title, paths, testId }: { title: string; paths: string[]; testId: string }) {
  return (
    <>
      <h4>{title}</h4>
      <ul className="sandbox-paths" data-testid={testId}>
        {paths.map((p) => (
          <li key={p}>
            <code>{p}</code>
          </li>
        ))}
      </ul>
    </>
  )
}

/**
 * The OS sandbox of the active project: whether this computer has one, a switch that saves the choice in the
 * user's settings, and what a sandboxed command may touch.
 */
export function Sandbox({ bridge, projectId }: { bridge: HotaruBridge | null; projectId: string | null }) {
  const [status, setStatus] = useState<SandboxStatus | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  useEffect(() => {
    if (!bridge || !projectId) return
    let live = true
    unwrap(bridge.sandbox.status({ projectId })).then(
      (value) => live && setStatus(value),
      (failure: unknown) => live && setError(errorMessage(failure)),
    )
    return () => {
      live = false
    }
  }, [bridge, projectId])
  if (!projectId || !bridge) return <p className="muted">Open a project to see its sandbox.</p>
  if (!status) return error ? <p className="error">{error}</p> : <p className="muted">Loading…</p>
  const s = state(status)
  const wanted = status.user?.enabled ?? status.enabled
  // Switching on needs a sandbox to run; switching off is always possible.
  const switchable = wanted || status.available
  const toggle = async (): Promise<void> => {
    setBusy(true)
    try {
      setStatus(await unwrap(bridge.sandbox.setEnabled({ projectId, enabled: !wanted })))
      setError(null)
    } catch (failure) {
      setError(errorMessage(failure))
    } finally {
      setBusy(false)
    }
  }
  const note = lockNote(status)
  return (
    <div className="settings-sandbox" data-testid="settings-sandbox" data-enabled={status.enabled} data-available={status.available}>
      <p className="muted">
        Commands the agent runs (and hooks, and MCP servers you mark for it) can run inside the operating system’s sandbox: they change files only in the
        project and a temporary folder, cannot read the private places listed below, and reach only the allowed sites. The built-in terminal is never
        sandboxed. A project’s own settings can only make the sandbox stricter.
      </p>
      <div className="settings-item settings-switch-row">
        <span className="settings-item-head">
          <span className="settings-item-label" id="sandbox-switch-label">
            Run commands in a sandbox
          </span>
          <span className={`sandbox-state sandbox-${s.tone}`} data-testid="sandbox-state">
            <ShieldIcon /> {s.label}
          </span>
        </span>
        <button
          type="button"
          role="switch"
          className="switch"
          aria-checked={wanted}
          aria-labelledby="sandbox-switch-label"
          // Busy keeps the focus (a disabled button would drop it): the click is ignored instead.
          disabled={!switchable}
          aria-busy={busy}
          onClick={() => !busy && background('sandbox switch', toggle())}
          data-testid="sandbox-switch"
        >
          <span className="switch-knob" />
        </button>
      </div>
      {note && (
        <p className="muted" data-testid="sandbox-lock">
          {note}
        </p>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {status.problem && (
        <p className={status.enabled ? 'error' : 'muted'} data-testid="sandbox-problem">
          {status.problem}
          {status.installHint ? ` — install it with: ${status.installHint}` : ''}
        </p>
      )}
      {status.user && (
        <p className="muted small-print">
          Your choice is saved in <code>{status.user.file}</code>
        </p>
      )}
      <h4>Found on this computer</h4>
      <ul className="sandbox-deps" data-testid="sandbox-deps">
        {status.dependencies.length === 0 && <li className="muted">Nothing: there is no sandbox for {status.platform}.</li>}
        {status.dependencies.map((d) => (
          <li key={d.name}>
            <Icon name={d.found ? 'check' : 'close'} label={d.found ? 'found' : 'missing'} className={d.found ? 'sandbox-ok' : 'sandbox-bad'} /> {d.name}
            {d.path ? <code> {d.path}</code> : null}
            {d.note ? <span className="muted"> — {d.note}</span> : null}
          </li>
        ))}
      </ul>
      <h4>How it behaves</h4>
      <ul className="sandbox-mode">
        <li>{status.autoAllow ? 'Sandboxed commands run without asking first (block rules still apply)' : 'Commands still ask first as your permission rules say'}</li>
        <li>{status.allowUnsandboxedRetry ? 'The agent may ask to run a blocked command once outside the sandbox (you are always asked)' : 'No command runs outside the sandbox'}</li>
        <li data-testid="sandbox-network">
          {status.network.mode === 'none'
            ? 'Network: none'
            : `Network only to: ${status.network.allowedDomains.join(', ') || '(no sites)'}; other sites are asked about`}
        </li>
      </ul>
      <PathList title="Commands can change" paths={status.writable} testId="sandbox-writable" />
      <PathList title="Read-only inside the project" paths={status.protectedWrites} testId="sandbox-protected" />
      {status.backend === 'bubblewrap' && (
        <p className="muted">
          One of these that does not exist yet and that a command creates is moved out of the project when the command ends (a new repository&apos;s hooks
          and a git config that runs programs, too); the command&apos;s output says where to.
        </p>
      )}
      <PathList title="Hidden from commands" paths={status.denyRead} testId="sandbox-denied" />
    </div>
  )
}
