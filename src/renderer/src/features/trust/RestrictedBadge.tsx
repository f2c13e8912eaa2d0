import { useTrust } from './trust-state'

/** Shown next to the project name while the folder is restricted; opens the trust settings. */
export function RestrictedBadge({ projectId, onReview }: { projectId: string; onReview(): void }) {
  const status = useTrust((s) => s.byProject[projectId])
  if (!status || status.trusted) return null
  const count = status.withheld.length
  return (
    <button
      type="button"
      className="restricted-badge"
      data-testid="restricted-badge"
      title={count > 0 ? `Restricted mode: ${count} item(s) of this folder withheld. Click to review.` : 'Restricted mode: this folder is not trusted.'}
      onClick={onReview}
    >
      Restricted
    </button>
  )
}
