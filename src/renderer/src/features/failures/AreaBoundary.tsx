import { useState, type ReactNode } from 'react'
import { ErrorBoundary } from 'react-error-boundary'
import { AreaFailure } from './AreaFailure'
import { reportRenderFailure } from './report'

export interface AreaBoundaryProps {
  /** What this part of the window is, as the user knows it ("chat", "editor"…). */
  area: string
  children: ReactNode
  /** Offer "Reload" besides "Try again" (the whole window's boundary). */
  reload?: () => void
}

/**
 * Keeps an error thrown while rendering (or in an effect) inside one part of the window: that part shows what
 * failed and "Try again", the rest stays. Every caught error is logged with its component stack.
 */
export function AreaBoundary({ area, children, reload }: AreaBoundaryProps) {
  const [componentStack, setComponentStack] = useState<string | null>(null)
  return (
    <ErrorBoundary
      onError={(error, info) => {
        reportRenderFailure(area, error, info.componentStack)
        setComponentStack(info.componentStack ?? null)
      }}
      onReset={() => setComponentStack(null)}
      fallbackRender={({ error, resetErrorBoundary }) => (
        <AreaFailure area={area} error={error} componentStack={componentStack} onRetry={resetErrorBoundary} onReload={reload} />
      )}
    >
      {children}
    </ErrorBoundary>
  )
}
