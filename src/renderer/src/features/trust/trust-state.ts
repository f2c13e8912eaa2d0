import { create } from 'zustand'
import type { HotaruBridge } from '@shared/ipc'
import type { TrustStatus } from '@shared/ipc/trust'
import { errorMessage, unwrap } from '../../ipc'
import { background } from '../../lib/background'

interface TrustState {
  /** The trust status of each open project, as last read. */
  byProject: Record<string, TrustStatus>
  /** Projects whose prompt the user closed without deciding (asked again next run). */
  dismissed: Record<string, true>
  /**
   * Projects that brought something restricted mode withholds when they opened. The prompt belongs to
   * opening a folder: a rule the user adds later (in Settings) shows in the Restricted badge, not in a modal.
   */
  askOnOpen: Record<string, true>
  error: string | null
}

export const useTrust = create<TrustState>(() => ({ byProject: {}, dismissed: {}, askOnOpen: {}, error: null }))

/** Reads a project's trust status (after it opens, and whenever a decision changes). */
export async function loadTrust(bridge: HotaruBridge, projectId: string): Promise<void> {
  try {
    const status = await unwrap(bridge.trust.status({ projectId }))
    useTrust.setState((s) => {
      const opening = s.byProject[projectId] === undefined && status.withheld.length > 0
      return {
        byProject: { ...s.byProject, [projectId]: status },
        askOnOpen: opening ? { ...s.askOnOpen, [projectId]: true } : s.askOnOpen,
        error: null,
      }
    })
  } catch (error) {
    useTrust.setState({ error: errorMessage(error) })
  }
}

/** "Trust" (`true`) or "Stay restricted" (`false`): stored for the folder, so the prompt does not come back. */
export async function decideTrust(bridge: HotaruBridge, projectId: string, trusted: boolean): Promise<void> {
  try {
    const status = await unwrap(bridge.trust.decide({ projectId, trusted }))
    useTrust.setState((s) => ({ byProject: { ...s.byProject, [projectId]: status }, error: null }))
  } catch (error) {
    useTrust.setState({ error: errorMessage(error) })
  }
}

export function dismissTrustPrompt(projectId: string): void {
  useTrust.setState((s) => ({ dismissed: { ...s.dismissed, [projectId]: true } }))
}

/** Keeps statuses current: a decision made anywhere (another window, the CLI over serve, settings) re-reads the projects it affects. */
export function followTrust(bridge: HotaruBridge): () => void {
  return bridge.trust.onChanged(({ payload }) => {
    for (const projectId of payload.projectIds) background('loadTrust', loadTrust(bridge, projectId))
  })
}

/** Whether to ask: a folder nobody decided on yet that brought something restricted mode withholds when it opened. */
export function needsPrompt(status: TrustStatus | undefined, dismissed: boolean, askOnOpen = true): boolean {
  return askOnOpen && status !== undefined && !status.trusted && status.decidedBy === undefined && status.withheld.length > 0 && !dismissed
}
