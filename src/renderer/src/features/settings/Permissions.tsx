import { useCallback, useEffect, useState, type FormEvent } from 'react'
import type { HotaruBridge, MethodOutput } from '@shared/ipc'
import type { RememberedApproval } from '@shared/schema/permission-rules'
import { Icon } from '../../components/Icon'
import { Select } from '../../components/Select'
import { errorMessage, unwrap } from '../../ipc'
import { background } from '../../lib/background'
import { useTrust } from '../trust'
import { groupRules, type ToolRules } from './permission-groups'
import { ACTION_LABELS, comparePermissions, LAYER_LABELS, PERMISSION_LABELS, patternLabel, permissionLabel, type Action } from '@shared/permission-labels'
import { matchesQuery, sectionNameMatches } from './settings-search'

type Rules = MethodOutput<'permission', 'rules'>
type Rule = ToolRules['rules'][number]
type Layer = 'user' | 'project'

const ACTIONS: Action[] = ['allow', 'ask', 'deny']
const UNTRUSTED_ALLOW = 'This folder is not trusted: its own settings can only ask first or block'

/** Where a change to a row goes: its own file for user and project rules; a built-in rule is overridden in the user's settings. */
function editableLayer(rule: Rule): Layer | null {
  if (rule.agent) return null
  if (rule.layer === 'user' || rule.layer === 'project') return rule.layer
  if (rule.layer === 'agent') return 'user'
  return null
}

function patternHint(permission: string): string {
  if (permission === 'bash') return 'command, e.g. npm test*'
  if (permission === 'edit' || permission === 'read' || permission === 'external_directory') return 'path, e.g. src/**'
  if (permission === 'webfetch' || permission === 'websearch' || permission === 'sandbox_network') return 'site, e.g. docs.python.org'
  return '* for anything'
}

function ActionSelect({ value, label, allowDisabled, onChange }: { value: Action; label: string; allowDisabled: boolean; onChange(action: Action): void }) {
  return (
    <Select className={`action action-${value}`} aria-label={label} value={value} onChange={(e) => onChange(e.target.value as Action)}>
      {ACTIONS.map((action) => (
        <option key={action} value={action} disabled={action === 'allow' && allowDisabled && value !== 'allow'}>
          {ACTION_LABELS[action]}
        </option>
      ))}
    </Select>
  )
}

function RuleRow({ rule, permission, trusted, change }: { rule: Rule; permission: string; trusted: boolean; change(layer: Layer, action: Action | null): void }) {
  const label = permissionLabel(permission).label
  const layer = editableLayer(rule)
  const where = `${label} — ${patternLabel(rule.pattern)}`
  const notes = [
    rule.agent ? `only for the ${rule.agent} agent` : '',
    rule.floor ? 'always holds' : '',
    rule.untrusted ? 'applies once you trust this folder' : '',
    rule.overridden ? 'a later rule decides' : '',
  ].filter(Boolean)
  return (
    <tr className={rule.overridden || rule.untrusted ? 'overridden' : ''} title={rule.file ?? 'Built into the app'} data-layer={rule.layer} data-pattern={rule.pattern}>
      <td>{rule.pattern === '*' || rule.pattern === '@read-only' ? patternLabel(rule.pattern) : <code>{rule.pattern}</code>}</td>
      <td>
        {layer ? (
          <ActionSelect
            value={rule.action}
            label={`Action for ${where} (${LAYER_LABELS[rule.layer]})`}
            allowDisabled={layer === 'project' && !trusted}
            onChange={(action) => change(layer, action)}
          />
        ) : (
          <span className={`action-${rule.action}`}>{ACTION_LABELS[rule.action]}</span>
        )}
      </td>
      <td>
        <span className="badge-pill">{LAYER_LABELS[rule.layer]}</span>
        {notes.length > 0 && <span className="muted"> · {notes.join(' · ')}</span>}
      </td>
      <td className="rule-actions">
        {(rule.layer === 'user' || rule.layer === 'project') && !rule.agent && (
          <button type="button" className="icon small" aria-label={`Delete rule: ${where} (${LAYER_LABELS[rule.layer]})`} title="Delete this rule" onClick={(e) => {
              // The button goes with its row: the focus moves to the group's heading, not to nowhere.
              e.currentTarget.closest('tbody')?.querySelector<HTMLElement>('th')?.focus()
              change(rule.layer as Layer, null)
            }}
          >
            <Icon name="trash" />
          </button>
        )}
      </td>
    </tr>
  )
}

function AddRule({ kinds, trusted, add }: { kinds: string[]; trusted: boolean; add(layer: Layer, permission: string, pattern: string, action: Action): Promise<boolean> }) {
  const [draft, setDraft] = useState<{ layer: Layer; permission: string; pattern: string; action: Action }>({ layer: 'project', permission: 'bash', pattern: '', action: 'ask' })
  const allowRefused = draft.layer === 'project' && !trusted
  const submit = (e: FormEvent): void => {
    e.preventDefault()
    if (!draft.pattern.trim()) return
    background(
      'add rule',
      add(draft.layer, draft.permission, draft.pattern.trim(), draft.action).then((added) => {
        if (added) setDraft((d) => ({ ...d, pattern: '' }))
      }),
    )
  }
  return (
    <form className="permission-add" onSubmit={submit} aria-label="Add a rule">
      <Select aria-label="Applies to" value={draft.layer} onChange={(e) => setDraft({ ...draft, layer: e.target.value as Layer, ...(e.target.value === 'project' && !trusted && draft.action === 'allow' ? { action: 'ask' as const } : {}) })}>
        <option value="project">This project</option>
        <option value="user">All projects (your settings)</option>
      </Select>
      <Select aria-label="Kind" value={draft.permission} onChange={(e) => setDraft({ ...draft, permission: e.target.value })}>
        {kinds.map((kind) => (
          <option key={kind} value={kind}>
            {permissionLabel(kind).label}
          </option>
        ))}
      </Select>
      <input aria-label="Pattern" value={draft.pattern} onChange={(e) => setDraft({ ...draft, pattern: e.target.value })} placeholder={patternHint(draft.permission)} />
      <ActionSelect value={draft.action} label="Action" allowDisabled={allowRefused} onChange={(action) => setDraft({ ...draft, action })} />
      {/* Never disabled: the focus stays on it after a rule is added, for the next one. */}
      <button type="submit" className="small">
        Add rule
      </button>
      {allowRefused && <p className="muted small-print">{UNTRUSTED_ALLOW}. Trust the folder, or add the rule for all projects.</p>}
    </form>
  )
}

/**
 * The permission rules in force for the default agent in this project, as the runtime enforces them (the same
 * policy), grouped per kind of action in plain words, with where each came from. The user's and the project's
 * rules are changed and deleted in place (written to their settings file, comments kept); changing a built-in rule
 * saves the new choice in the user's settings. Remembered "always" answers can be revoked.
 */
export function Permissions({ bridge, projectId, sessionId, query }: { bridge: HotaruBridge; projectId: string; sessionId: string | null; query: string }) {
  const [rules, setRules] = useState<Rules | null>(null)
  const [approvals, setApprovals] = useState<RememberedApproval[]>([])
  const [error, setError] = useState<string | null>(null)
  // Trusting the folder (in Workspace trust, shown beside this while searching) changes what applies: read again.
  const trustedNow = useTrust((s) => s.byProject[projectId]?.trusted)

  const load = useCallback(async (): Promise<void> => {
    const [r, a] = await Promise.all([
      unwrap(bridge.permission.rules({ projectId })),
      unwrap(bridge.permission.approvals({ projectId, ...(sessionId ? { sessionId } : {}) })),
    ])
    setRules(r)
    setApprovals(a)
  }, [bridge, projectId, sessionId])
  useEffect(() => {
    let live = true
    background(
      'permission settings',
      Promise.all([bridge.permission.rules({ projectId }), bridge.permission.approvals({ projectId, ...(sessionId ? { sessionId } : {}) })]).then(([r, a]) => {
        if (!live) return
        if (r.ok) setRules(r.value)
        else setError(r.error.data.message)
        if (a.ok) setApprovals(a.value)
      }),
    )
    return () => {
      live = false
    }
  }, [bridge, projectId, sessionId, trustedNow])

  const change = async (layer: Layer, permission: string, pattern: string, action: Action | null): Promise<boolean> => {
    try {
      await unwrap(bridge.permission.setRule({ projectId, layer, permission, pattern, action }))
      await load()
      setError(null)
      return true
    } catch (e) {
      setError(errorMessage(e))
      return false
    }
  }
  const revoke = async (a: RememberedApproval): Promise<void> => {
    try {
      await unwrap(bridge.permission.revoke({ projectId, permission: a.permission, pattern: a.pattern, scope: a.scope, ...(a.sessionId ? { sessionId: a.sessionId } : {}) }))
      await load()
    } catch (e) {
      setError(errorMessage(e))
    }
  }

  const whole = !query.trim() || sectionNameMatches(query, 'permissions')
  const groups = rules ? groupRules(rules.rules).sort((a, b) => comparePermissions(a.permission, b.permission)) : []
  const shown = groups.filter((group) => {
    if (whole) return true
    const { label, description } = permissionLabel(group.permission)
    return matchesQuery(query, [label, description, group.permission, ...group.rules.map((r) => r.pattern)])
  })
  const kinds = [...new Set([...Object.keys(PERMISSION_LABELS), ...groups.map((g) => g.permission)])].sort(comparePermissions)
  const trusted = rules?.trusted ?? true

  return (
    <div className="settings-permissions" data-testid="settings-permissions">
      <p className="muted">
        Each kind of action follows its rules from top to bottom: the last rule that matches decides, and when none matches you are asked first. Rules you add
        for this project are saved in the project; rules for all projects in your own settings.
      </p>
      {!trusted && (
        <p className="muted" data-testid="permissions-untrusted">
          This folder is not trusted yet: its own settings can make things stricter (ask first, block), but what they allow waits until you trust it.
        </p>
      )}
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
              <th>When it matches</th>
              <th>Then</th>
              <th>Set in</th>
              <th>
                <span className="sr-only">Delete</span>
              </th>
            </tr>
          </thead>
          {shown.map((group) => {
            const { label, description } = permissionLabel(group.permission)
            return (
              <tbody key={group.permission} data-permission={group.permission} aria-label={label}>
                <tr className="permission-group">
                  <th colSpan={4} scope="rowgroup" tabIndex={-1}>
                    <span className="permission-label">{label}</span> <span className="muted">{description}</span>
                  </th>
                </tr>
                {group.rules.map((rule, i) => (
                  <RuleRow
                    key={`${rule.layer}:${rule.pattern}:${i}`}
                    rule={rule}
                    permission={group.permission}
                    trusted={trusted}
                    change={(layer, action) => background('change rule', change(layer, group.permission, rule.pattern, action))}
                  />
                ))}
              </tbody>
            )
          })}
        </table>
      )}
      {rules && shown.length === 0 && <p className="muted">No rules of their own match “{query}”: such actions follow “Everything else”.</p>}
      <h4>Add a rule</h4>
      <AddRule kinds={kinds} trusted={trusted} add={change} />
      {rules && (
        <p className="muted small-print">
          Your settings: <code>{rules.files.user}</code> · this project: <code>{rules.files.project}</code>
        </p>
      )}
      <h4>Remembered approvals</h4>
      {approvals.length === 0 ? (
        <p className="muted">None: your “Always” answers to permission questions show up here.</p>
      ) : (
        <ul className="approval-list" aria-label="Remembered approvals">
          {approvals.map((a) => {
            const label = permissionLabel(a.permission).label
            return (
              <li key={`${a.scope}:${a.permission}:${a.pattern}`}>
                <span>
                  {label} <code>{a.pattern}</code> <span className="badge-pill">{a.scope === 'persisted' ? 'always (saved)' : `this ${a.scope}`}</span>
                </span>
                <button type="button" className="small" aria-label={`Revoke ${label} ${a.pattern}`} onClick={() => background('revoke', revoke(a))}>
                  Revoke
                </button>
              </li>
            )
          })}
        </ul>
      )}
    </div>
  )
}
