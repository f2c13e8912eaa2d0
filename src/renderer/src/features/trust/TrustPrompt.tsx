import { useEffect } from 'react'
import { Modal } from '../../components/Modal'
import { useWorkspace } from '../../stores/workspace'
import { itemsOf, KIND_HEADINGS } from './labels'
import { decideTrust, dismissTrustPrompt, followTrust, loadTrust, needsPrompt, useTrust } from './trust-state'
import { background } from '../../lib/background'

/**
 * "Do you trust this folder?" — shown when the active project brings anything
 * restricted mode withholds and nobody has decided on it yet. Lists exactly what
 * trusting would run or change; "Stay restricted" is remembered like "Trust".
 */
export function TrustPrompt() {
  const bridge = useWorkspace((s) => s.bridge)
  const projects = useWorkspace((s) => s.projects)
  const activeId = useWorkspace((s) => s.activeId)
  const status = useTrust((s) => (activeId ? s.byProject[activeId] : undefined))
  const dismissed = useTrust((s) => (activeId ? s.dismissed[activeId] === true : false))
  const askOnOpen = useTrust((s) => (activeId ? s.askOnOpen[activeId] === true : false))
  const error = useTrust((s) => s.error)
  useEffect(() => (bridge ? followTrust(bridge) : undefined), [bridge])
  useEffect(() => {
    if (!bridge) return
    for (const project of projects) if (!useTrust.getState().byProject[project.id]) background('loadTrust', loadTrust(bridge, project.id))
  }, [bridge, projects])
  if (!bridge || !activeId || !status || !needsPrompt(status, dismissed, askOnOpen)) return null
  return (
    <Modal title="Trust this folder?" onCancel={() => dismissTrustPrompt(activeId)} testId="trust-prompt" className="trust-modal">
      <p>
        <code>{status.path}</code> brings its own configuration. Until you trust it, Hotaru runs none of it; reading, chatting and the
        agent under your own rules work as usual.
      </p>
      <div className="trust-items">
        {KIND_HEADINGS.map(([kind, heading]) => {
          const items = itemsOf(status.withheld, kind)
          if (items.length === 0) return null
          return (
            <section key={kind} data-testid={`trust-kind-${kind}`}>
              <h4>{heading}</h4>
              <ul>
                {items.map((item, i) => (
                  <li key={`${item.file}:${i}`} data-testid="trust-item" title={item.file}>
                    <code>{item.detail}</code>
                  </li>
                ))}
              </ul>
            </section>
          )
        })}
      </div>
      <p className="muted">Your own and your administrator’s deny rules hold either way. You can change this later in Settings → Workspace trust.</p>
      {error && <p className="error">{error}</p>}
      <div className="modal-actions">
        <button type="button" onClick={() => background('decideTrust', decideTrust(bridge, activeId, false))} data-testid="trust-stay-restricted">
          Stay restricted
        </button>
        <button type="button" className="primary" onClick={() => background('decideTrust', decideTrust(bridge, activeId, true))} data-testid="trust-accept">
          Trust
        </button>
      </div>
    </Modal>
  )
}
