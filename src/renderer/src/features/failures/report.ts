import type { ErrorInfo } from 'react'
import type { RootOptions } from 'react-dom/client'
import { ErrorBoundary } from 'react-error-boundary'

/** The text of a thrown value: an Error's message, or the value itself. */
export function failureMessage(thrown: unknown): string {
  if (thrown instanceof Error) return thrown.message || thrown.name
  return typeof thrown === 'string' ? thrown : String(thrown)
}

/**
 * Logs an error an area's boundary caught, with the component stack, so it stays as visible (DevTools, the
 * browser tests' console capture) as an error that took the page down.
 */
export function reportRenderFailure(area: string, thrown: unknown, componentStack: ErrorInfo['componentStack']): void {
  console.error(`[render] the ${area} failed: ${failureMessage(thrown)}\nComponent stack:${componentStack ?? ' (none)'}`, thrown)
}

/**
 * React root options: an error caught by an area's boundary was already reported by it (with its component
 * stack), so React's own log of it is left out; one caught by any other boundary is logged as React would.
 */
export const rootFailureOptions: Pick<RootOptions, 'onCaughtError'> = {
  onCaughtError(thrown, info) {
    if (info.errorBoundary instanceof ErrorBoundary) return
    console.error(thrown, info.componentStack)
  },
}
