// @vitest-environment jsdom
import { useEffect } from 'react'
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest'
import { AreaBoundary, rootFailureOptions } from '../../../src/renderer/src/features/failures'

/** The one test component: renders its text, or throws while `broken` says so. */
const chat = { broken: true }
function Transcript() {
  if (chat.broken) throw new Error('Cannot read the transcript')
  return <p>Hello from the transcript</p>
}

function EffectFails() {
  useEffect(() => {
    throw new Error('The layout could not be restored')
  }, [])
  return <p>Layout</p>
}

/** The window as main.tsx and ProjectView nest it: the window's boundary, areas side by side inside. */
function Window({ reload, chatArea }: { reload: () => void; chatArea: React.ReactNode }) {
  return (
    <AreaBoundary area="app" reload={reload}>
      <nav aria-label="Projects">my-app</nav>
      <AreaBoundary area="chat">{chatArea}</AreaBoundary>
      <AreaBoundary area="editor">
        <p>Editor content</p>
      </AreaBoundary>
    </AreaBoundary>
  )
}

let logged: MockInstance<typeof console.error>
beforeEach(() => {
  chat.broken = true
  logged = vi.spyOn(console, 'error').mockImplementation(() => undefined)
})
afterEach(() => {
  cleanup()
  logged.mockRestore()
})

describe('an area that fails to render', () => {
  it('shows what failed in its place, keeps the rest of the window and comes back with Try again', () => {
    const reload = vi.fn()
    render(<Window reload={reload} chatArea={<Transcript />} />, { onCaughtError: rootFailureOptions.onCaughtError })

    const failure = screen.getByRole('alert', { name: 'The chat failed' })
    expect(within(failure).getByRole('heading').textContent).toBe('The chat stopped working')
    expect(within(failure).getByText('Cannot read the transcript')).toBeTruthy()
    const details = within(failure).getByText('Details').closest('details')
    expect(details?.open).toBe(false)
    expect(details?.textContent).toContain('Error: Cannot read the transcript')
    expect(details?.textContent).toMatch(/Component stack:\s+at Transcript/)
    expect(within(failure).queryByRole('button', { name: 'Reload' })).toBeNull()

    // Everything around the chat is still there.
    expect(screen.getByRole('navigation', { name: 'Projects' }).textContent).toBe('my-app')
    expect(screen.getByText('Editor content')).toBeTruthy()
    expect(screen.getAllByRole('alert')).toHaveLength(1)

    // Reported once, with the component stack, and not a second time by React's own log.
    expect(logged).toHaveBeenCalledTimes(1)
    expect(String(logged.mock.calls[0]?.[0])).toMatch(/^\[render\] the chat failed: Cannot read the transcript\nComponent stack:\s+at Transcript/)

    // Still broken: the fallback comes back, and the new failure is reported too.
    fireEvent.click(within(failure).getByRole('button', { name: 'Try again' }))
    expect(screen.getByRole('alert', { name: 'The chat failed' })).toBeTruthy()
    expect(logged).toHaveBeenCalledTimes(2)

    chat.broken = false
    fireEvent.click(within(screen.getByRole('alert', { name: 'The chat failed' })).getByRole('button', { name: 'Try again' }))
    expect(screen.getByText('Hello from the transcript')).toBeTruthy()
    expect(screen.queryByRole('alert')).toBeNull()
    expect(screen.getByText('Editor content')).toBeTruthy()
    expect(reload).not.toHaveBeenCalled()
  })

  it('catches an error thrown in an effect, and the window as a whole offers Reload', () => {
    const reload = vi.fn()
    render(
      <AreaBoundary area="app" reload={reload}>
        <EffectFails />
      </AreaBoundary>,
      { onCaughtError: rootFailureOptions.onCaughtError },
    )
    const failure = screen.getByRole('alert', { name: 'The app failed' })
    expect(within(failure).getByText('The layout could not be restored')).toBeTruthy()
    expect(screen.queryByText('Layout')).toBeNull()
    fireEvent.click(within(failure).getByRole('button', { name: 'Reload' }))
    expect(reload).toHaveBeenCalledTimes(1)
    expect(String(logged.mock.calls[0]?.[0])).toContain('[render] the app failed: The layout could not be restored')
  })
})
