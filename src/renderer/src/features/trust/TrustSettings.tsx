import { useCallback, useEffect, useState } from 'react'
import type { HotaruBridge, MethodOutput } from '@shared/ipc'
import { errorMessage, unwrap } from '../../ipc'
import { itemsOf, KIND_HEADINGS } from './labels'
import { decideTrust, loadTrust, useTrust } from './trust-state'
import { background } from '../../lib/background'

type Decision = MethodOutput<'trust', 'list'>[number]

/** Settings → Workspace trust: the active project's decision (changeable) and every stored decision. */
export function TrustSettings({ bridge, projectId }: { bridge: HotaruBridge | null; projectId: string | null }) {
  const status = useTrust((s) => (projectId ? s.byProject[projectId] : undefined))
  const [decisions, setDecisions] = useState<Decision[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const load = useCallback(() => {
    if (!bridge) return
    if (projectId) background('loadTrust', loadTrust(bridge, projectId))
    background('bridge.trust.list', bridge.trust.list({}).then((result) => {
      if (result.ok) setDecisions(result.value)
      else setError(result.error.data.message)
    }))
  }, [bridge, projectId])
  useEffect(load, [load])
  if (!bridge) return null
  const decide = async (trusted: boolean): Promise<void> => {
    if (!projectId) return
    await decideTrust(bridge, projectId, trusted)
    load()
  }
  const revoke = async (path: string): Promise<void> => {
    try {
      await unwrap(bridge.trust.revoke({ path }))
      load()
    } catch (err) {
      setError(errorMessage(err))
    }
  }
  return (
    <div className="settings-section" data-testid="settings-trust">
      <p className="muted">
        A folder you have not trusted runs nothing it brings with it: no MCP server, tool or hook that its own files set up. Its
        permission rules can only make things stricter, and its model provider settings are ignored. Trusting a folder covers every
        folder inside it. What you and your organization block stays blocked either way.
      </p>
      {status && (
        <div className="trust-current" data-testid="trust-current" data-trusted={status.trusted}>
          <p>
            <code>{status.path}</code> is <strong>{status.trusted ? 'trusted' : 'restricted'}</strong>
            {status.decidedBy && status.decidedBy !== status.path ? ` (decided for ${status.decidedBy})` : ''}.
          </p>
          {!status.trusted &&
            KIND_HEADINGS.map(([kind, heading]) => {
              const items = itemsOf(status.withheld, kind)
              if (items.length === 0) return null
              return (
                <div key={kind}>
                  <h4>{heading}</h4>
                  <ul>
                    {items.map((item, i) => (
                      <li key={`${item.file}:${i}`}>
                        <code>{item.detail}</code>
                      </li>
                    ))}
                  </ul>
                </div>
              )
            })}
          <button type="button" className={status.trusted ? '' : 'primary'} onClick={() => background('trust decide', decide(!status.trusted))} data-testid="trust-toggle">
            {status.trusted ? 'Restrict this folder' : 'Trust this folder'}
          </button>
        </div>
      )}
      {error && <p className="error">{error}</p>}
      <h4>Decisions</h4>
      {decisions && decisions.length === 0 && <p className="muted">No folder decided yet.</p>}
      {decisions && decisions.length > 0 && (
        <ul className="mcp-list" data-testid="trust-decisions">
          {decisions.map((d) => (
            <li key={d.path} className="mcp-row">
              <span className={`mcp-state ${d.trusted ? 'mcp-connected' : 'mcp-failed'}`}>{d.trusted ? 'trusted' : 'restricted'}</span>
              <code className="mcp-meta">{d.path}</code>
              <button type="button" className="small ghost" onClick={() => background('trust revoke', revoke(d.path))}>
                Forget
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
