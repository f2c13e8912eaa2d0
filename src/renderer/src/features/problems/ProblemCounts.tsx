import { useStore } from 'zustand'
import { useShallow } from 'zustand/react/shallow'
import type { HotaruBridge } from '@shared/ipc'
import { countProblems, problemsFor } from '../../stores/problems'
import { Icon } from '../../components/Icon'

/** Error and warning counts for the status bar; a click shows the Problems panel of the project. */
export function ProblemCounts({ bridge, projectId, onShow }: { bridge: HotaruBridge; projectId: string; onShow(): void }) {
  const store = problemsFor(bridge, projectId)
  const counts = useStore(store, useShallow((s) => countProblems(s.files)))
  const starting = useStore(store, (s) => Object.values(s.servers).some((v) => v.state === 'starting' || v.state === 'restarting' || v.state === 'installing'))
  return (
    <button
      type="button"
      className="statusbar-problems ghost small"
      data-testid="problem-counts"
      data-errors={counts.errors}
      data-warnings={counts.warnings}
      title={starting ? 'Language servers are starting…' : 'Show problems'}
      onClick={onShow}
    >
      <Icon name="error" label="errors" /> {counts.errors} <Icon name="warning" label="warnings" /> {counts.warnings}
      {starting ? ' …' : ''}
    </button>
  )
}
