import { failureMessage } from './report'

export interface AreaFailureProps {
  /** What stopped working, as the user knows it ("chat", "editor"…). */
  area: string
  error: unknown
  componentStack: string | null
  onRetry: () => void
  /** Shown for the whole window: a reload is then the other way out. */
  onReload?: () => void
}

/** What an area shows in place of its content once it failed: what went wrong, and the ways back. */
export function AreaFailure({ area, error, componentStack, onRetry, onReload }: AreaFailureProps) {
  const stack = error instanceof Error ? error.stack : undefined
  return (
    <section className={`area-failure${onReload ? ' whole' : ''}`} role="alert" aria-label={`The ${area} failed`} data-testid="area-failure" data-area={area}>
      <h2>The {area} stopped working</h2>
      <p className="area-failure-message">{failureMessage(error)}</p>
      <p className="muted">
        {onReload
          ? 'Try again to show it once more; Reload starts the window afresh. Your projects and sessions are kept either way.'
          : 'The rest of the window keeps working. Try again to show it once more.'}
      </p>
      <div className="area-failure-actions">
        <button type="button" className="primary" onClick={onRetry}>
          Try again
        </button>
        {onReload && (
          <button type="button" onClick={onReload}>
            Reload
          </button>
        )}
      </div>
      {(stack || componentStack) && (
        <details className="area-failure-details">
          <summary>Details</summary>
          {stack && <pre>{stack}</pre>}
          {componentStack && <pre>{`Component stack:${componentStack}`}</pre>}
        </details>
      )}
    </section>
  )
}
