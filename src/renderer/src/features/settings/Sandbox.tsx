import { useEffect, useState } from 'react'
import { ShieldIcon } from '../../components/ShieldIcon'
import type { HotaruBridge } from '@shared/ipc'
import type { SandboxStatus } from '@shared/ipc/sandbox'
import { errorMessage, unwrap } from '../../ipc'

const BACKEND: Record<SandboxStatus['backend'], string> = { bubblewrap: 'bubblewrap', seatbelt: 'Seatbelt (sandbox-exec)', none: 'none' }

function state(status: SandboxStatus): { label: string; tone: 'ok' | 'off' | 'bad' } {
  if (!status.enabled) return { label: 'Off', tone: 'off' }
  if (!status.available) return { label: 'On, but cannot run: commands are refused', tone: 'bad' }
  return { label: `On (${BACKEND[status.backend]})`, tone: 'ok' }
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

/** The OS sandbox of the active project: status, what was found on this machine, mode, paths and domains (read-only; set in hotaru.json). */
export function Sandbox({ bridge, projectId }: { bridge: HotaruBridge | null; projectId: string | null }) {
  const [status, setStatus] = useState<SandboxStatus | null>(null)
  const [error, setError] = useState<string | null>(null)
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
  if (!projectId) return <p className="muted">Open a project to see its sandbox.</p>
  if (error) return <p className="error">{error}</p>
  if (!status) return <p className="muted">Loading…</p>
  const s = state(status)
  return (
    <div className="settings-section" data-testid="settings-sandbox" data-enabled={status.enabled} data-available={status.available}>
      <p className="muted">
        Bash commands, hooks and MCP servers with <code>"sandbox": true</code> run confined by the operating system: they write only inside the project and its temp
        folder, cannot read the paths below, and reach the network only through the allowlist. Set it under <code>"sandbox"</code> in your user hotaru.json; a
        project's own config can only tighten it. The integrated terminal is never sandboxed.
      </p>
      <div className="settings-field">
        <span>Status</span>
        <span className={`sandbox-state sandbox-${s.tone}`} data-testid="sandbox-state">
          <ShieldIcon /> {s.label}
        </span>
      </div>
      {status.problem && (
        <p className={status.enabled ? 'error' : 'muted'} data-testid="sandbox-problem">
          {status.problem}
          {status.installHint ? ` — install: ${status.installHint}` : ''}
        </p>
      )}
      <h4>Found on this machine</h4>
      <ul className="sandbox-deps" data-testid="sandbox-deps">
        {status.dependencies.length === 0 && <li className="muted">Nothing: there is no OS sandbox on {status.platform}.</li>}
        {status.dependencies.map((d) => (
          <li key={d.name}>
            {d.found ? '✓' : '✗'} {d.name}
            {d.path ? <code> {d.path}</code> : null}
            {d.note ? <span className="muted"> — {d.note}</span> : null}
          </li>
        ))}
      </ul>
      <h4>Mode</h4>
      <ul className="sandbox-mode">
        <li>{status.autoAllow ? 'autoAllow: sandboxed commands run without a bash prompt (deny rules still apply)' : 'Commands still ask as the permission rules say'}</li>
        <li>{status.allowUnsandboxedRetry ? 'The model may ask to re-run one blocked command outside the sandbox (you are always asked)' : 'No command runs outside the sandbox'}</li>
        <li data-testid="sandbox-network">
          {status.network.mode === 'none'
            ? 'Network: none'
            : `Network through the proxy to: ${status.network.allowedDomains.join(', ') || '(no domains)'}; other hosts are asked about`}
        </li>
      </ul>
      <PathList title="Writable" paths={status.writable} testId="sandbox-writable" />
      <PathList title="Read-only inside the project" paths={status.protectedWrites} testId="sandbox-protected" />
      {status.backend === 'bubblewrap' && (
        <p className="muted">
          One of these that does not exist yet and that a command creates is moved out of the project when the command ends (a new repository&apos;s hooks
          and a git config that runs programs, too); the command&apos;s output says where to.
        </p>
      )}
      <PathList title="Hidden (no read, no write)" paths={status.denyRead} testId="sandbox-denied" />
    </div>
  )
}
