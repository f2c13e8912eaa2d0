import { background } from '../../lib/background'
import { useCallback, useEffect, useState, type FormEvent } from 'react'
import type { HotaruBridge, MethodOutput } from '@shared/ipc'
import type { PermissionLayer, RememberedApproval } from '@shared/schema/permission-rules'
import { errorMessage, unwrap } from '../../ipc'
import { groupRules } from './permission-groups'
import { Icon } from '../../components/Icon'

type Rules = MethodOutput<'permission', 'rules'>
type Action = 'allow' | 'ask' | 'deny'

const LAYER_LABEL: Record<PermissionLayer, string> = {
  agent: 'built-in',
  tool: 'custom or MCP tool',
  user: 'user',
  project: 'project',
  env: 'environment',
  managed: 'managed',
  'agent-file': 'agent file',
}

/**
 * The permission rules in force for the default agent in this project, per tool, as the runtime enforces them
 * (the same policy), with the layer each came from; user and project rules can be added and
 * removed (written to their config file, comments kept); remembered "always"
 * approvals are listed and can be revoked.
 */
export function Permissions({ bridge, projectId, sessionId }: { bridge: HotaruBridge; projectId: string; sessionId: string | null }) {
  const [rules, setRules] = useState<Rules | null>(null)
  const [approvals, setApprovals] = useState<RememberedApproval[]>([])
  const [error, setError] = useState<string | null>(null)
  const [draft, setDraft] = useState<{ layer: 'user' | 'project'; permission: string; pattern: string; action: Action }>({ layer: 'project', permission: 'bash', pattern: '', action: 'allow' })

  const load = useCallback(async (): Promise<void> => {
    try {
      const [r, a] = await Promise.all([
        unwrap(bridge.permission.rules({ projectId })),
        unwrap(bridge.permission.approvals({ projectId, ...(sessionId ? { sessionId } : {}) })),
      ])
      setRules(r)
      setApprovals(a)
      setError(null)
    } catch (e) {
      setError(errorMessage(e))
    }
  }, [bridge, projectId, sessionId])
  useEffect(() => {
    let live = true
    background('permission settings', Promise.all([bridge.permission.rules({ projectId }), bridge.permission.approvals({ projectId, ...(sessionId ? { sessionId } : {}) })]).then(([r, a]) => {
      if (!live) return
      if (r.ok) setRules(r.value)
      else setError(r.error.data.message)
      if (a.ok) setApprovals(a.value)
    }))
    return () => {
      live = false
    }
  }, [bridge, projectId, sessionId])

  const change = async (layer: 'user' | 'project', permission: string, pattern: string, action: Action | null): Promise<void> => {
    try {
      await unwrap(bridge.permission.setRule({ projectId, layer, permission, pattern, action }))
      await load()
    } catch (e) {
      setError(errorMessage(e))
    }
  }
  const add = (e: FormEvent): void => {
    e.preventDefault()
    if (!draft.permission.trim() || !draft.pattern.trim()) return
    background('change', change(draft.layer, draft.permission.trim(), draft.pattern.trim(), draft.action).then(() => setDraft((d) => ({ ...d, pattern: '' }))))
  }
  const revoke = async (a: RememberedApproval): Promise<void> => {
    try {
      await unwrap(bridge.permission.revoke({ projectId, permission: a.permission, pattern: a.pattern, scope: a.scope, ...(a.sessionId ? { sessionId: a.sessionId } : {}) }))
      await load()
    } catch (e) {
      setError(errorMessage(e))
    }
  }

  return (
    <div className="settings-section" data-testid="settings-permissions">
      <p className="muted">Rules apply top to bottom per tool; the last one that matches wins, and nothing matched means ask. Built-in rules are the build agent’s defaults.</p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {!rules ? (
        <p className="muted">Loading rules…</p>
      ) : (
        <table className="settings-table permission-rules" aria-label="Rules in effect">
          <thead>
            <tr>
              <th>Tool</th>
              <th>Pattern</th>
              <th>Action</th>
              <th>From</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {groupRules(rules.rules).flatMap((tool) =>
              tool.rules.map((rule, i) => (
                <tr
                  key={`${tool.permission}:${i}`}
                  className={rule.overridden || rule.untrusted ? 'overridden' : ''}
                  title={rule.untrusted ? `${rule.file ?? ''}: applies once you trust this folder` : (rule.file ?? 'built in')}
                >
                  <td>{i === 0 ? tool.permission : ''}</td>
                  <td>
                    <code>{rule.pattern}</code>
                  </td>
                  <td className={`action-${rule.action}`}>{rule.action}</td>
                  <td>
                    <span className="badge-pill">{LAYER_LABEL[rule.layer]}</span>
                    {rule.agent && <span className="muted"> · agent {rule.agent}</span>}
                    {rule.floor && <span className="muted"> · always holds</span>}
                    {rule.untrusted && <span className="muted"> · not trusted</span>}
                  </td>
                  <td>
                    {(rule.layer === 'user' || rule.layer === 'project') && !rule.agent && (
                      <button type="button" className="icon small" aria-label={`Remove ${rule.layer} rule ${tool.permission} ${rule.pattern}`} onClick={() => background('change', change(rule.layer as 'user' | 'project', tool.permission, rule.pattern, null))}>
                        <Icon name="close" />
                      </button>
                    )}
                  </td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      )}
      <form className="permission-add" onSubmit={add} aria-label="Add a rule">
        <select aria-label="Layer" value={draft.layer} onChange={(e) => setDraft({ ...draft, layer: e.target.value as 'user' | 'project' })}>
          <option value="project">Project (.hotaru)</option>
          <option value="user">User (all projects)</option>
        </select>
        <input aria-label="Tool" value={draft.permission} onChange={(e) => setDraft({ ...draft, permission: e.target.value })} placeholder="tool (bash, edit, …)" />
        <input aria-label="Pattern" value={draft.pattern} onChange={(e) => setDraft({ ...draft, pattern: e.target.value })} placeholder="pattern (git status*, src/**, docs.python.org)" />
        <select aria-label="Action" value={draft.action} onChange={(e) => setDraft({ ...draft, action: e.target.value as Action })}>
          <option value="allow">allow</option>
          <option value="ask">ask</option>
          <option value="deny">deny</option>
        </select>
        <button type="submit" className="small">
          Add rule
        </button>
      </form>
      {rules && (
        <p className="muted small-print">
          User rules: <code>{rules.files.user}</code> · project rules: <code>{rules.files.project}</code>
        </p>
      )}
      <h4>Remembered approvals</h4>
      {approvals.length === 0 ? (
        <p className="muted">None: “Always” answers to permission asks show up here.</p>
      ) : (
        <ul className="approval-list" aria-label="Remembered approvals">
          {approvals.map((a) => (
            <li key={`${a.scope}:${a.permission}:${a.pattern}`}>
              <span>
                {a.permission} <code>{a.pattern}</code> <span className="badge-pill">{a.scope === 'persisted' ? 'always (saved)' : `this ${a.scope}`}</span>
              </span>
              <button type="button" className="small" aria-label={`Revoke ${a.permission} ${a.pattern}`} onClick={() => background('revoke', revoke(a))}>
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
