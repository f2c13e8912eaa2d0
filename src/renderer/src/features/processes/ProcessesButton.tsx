import { useState } from 'react'
import { useStore } from 'zustand'
import type { HotaruBridge } from '@shared/ipc'
import { Elapsed } from '../../components/Elapsed'
import { StatusPopover } from '../../components/StatusPopover'
import { background } from '../../lib/background'
import { killProcess, processesFor, processOutput, type BackgroundProcess } from '../../stores/processes'

function statusText(p: BackgroundProcess): string {
  if (p.status === 'running') return 'running'
  if (p.status === 'killed') return 'stopped'
  return p.exitCode !== null ? `exited ${p.exitCode}` : `ended by ${p.signal ?? 'a signal'}`
}

function ProcessRow({ bridge, projectId, process: p }: { bridge: HotaruBridge; projectId: string; process: BackgroundProcess }) {
  const [output, setOutput] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const showOutput = (): void => {
    if (output !== null) {
      setOutput(null)
      return
    }
    background(
      'process output',
      processOutput(bridge, projectId, p.id).then((text) => setOutput(text || '(no output yet)')),
    )
  }
  const stop = (): void => {
    setBusy(true)
    background('stop process', killProcess(bridge, projectId, p.id).finally(() => setBusy(false)))
  }
  return (
    <li className={`process process-${p.status}`} data-testid="process" data-status={p.status}>
      <div className="process-row">
        <span className={`process-state process-${p.status}`}>{statusText(p)}</span>
        <span className="process-command mono" title={p.command}>
          {p.description ?? p.command}
        </span>
        <span className="muted process-meta">
          pid {p.pid} · <Elapsed start={p.startedAt} {...(p.endedAt !== undefined ? { end: p.endedAt } : {})} />
        </span>
        <button type="button" className="small ghost" aria-expanded={output !== null} onClick={showOutput}>
          Output
        </button>
        {p.status === 'running' && (
          <button type="button" className="small" disabled={busy} onClick={stop}>
            Stop
          </button>
        )}
      </div>
      {p.description && <div className="process-full mono muted">{p.command}</div>}
      {output !== null && <pre className="process-output mono">{output}</pre>}
    </li>
  )
}

/**
 * The status bar's background processes of the active project (dev servers and watchers the agent
 * started): shown once there are any, with the running count; the list has each one's output and Stop.
 */
export function ProcessesButton({ bridge, projectId }: { bridge: HotaruBridge; projectId: string }) {
  const processes = useStore(processesFor(bridge, projectId), (s) => s.processes)
  if (processes.length === 0) return null
  const running = processes.filter((p) => p.status === 'running').length
  return (
    <StatusPopover
      label={`Background processes (${running} running)`}
      testId="processes-button"
      face={
        <>
          <span className={`process-dot${running > 0 ? ' live' : ''}`} aria-hidden /> {running} running
        </>
      }
      heading="Background processes"
    >
      <ul className="statusbar-popover-list">
        {processes.map((p) => (
          <ProcessRow key={p.id} bridge={bridge} projectId={projectId} process={p} />
        ))}
      </ul>
    </StatusPopover>
  )
}
