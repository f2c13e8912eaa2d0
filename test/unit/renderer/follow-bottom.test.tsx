// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { useFollowBottom } from '../../../src/renderer/src/features/chat/messages/follow-bottom'

/**
 * jsdom lays nothing out: the chat's scroll container gets the geometry a browser would give it
 * (content height, viewport height, a clamped scrollTop that fires "scroll" when it moves), and
 * resize observers fire when the test changes that geometry, as they do after a browser's layout.
 */
const geometry = { content: 1000, viewport: 400 }
const observed: Array<{ callback: ResizeObserverCallback; targets: Element[] }> = []
class LayoutObserver {
  private readonly entry: { callback: ResizeObserverCallback; targets: Element[] }
  constructor(callback: ResizeObserverCallback) {
    this.entry = { callback, targets: [] }
    observed.push(this.entry)
  }
  observe(target: Element): void {
    this.entry.targets.push(target)
  }
  unobserve(): void {}
  disconnect(): void {
    this.entry.targets = []
  }
}

function layout(change: Partial<typeof geometry>): void {
  Object.assign(geometry, change)
  act(() => {
    for (const { callback, targets } of observed) if (targets.length > 0) callback([], {} as ResizeObserver)
  })
}

function giveGeometry(el: HTMLElement): void {
  let top = 0
  Object.defineProperty(el, 'scrollHeight', { get: () => geometry.content })
  Object.defineProperty(el, 'clientHeight', { get: () => geometry.viewport })
  Object.defineProperty(el, 'scrollTop', {
    get: () => top,
    set: (value: number) => {
      const next = Math.max(0, Math.min(value, geometry.content - geometry.viewport))
      if (next === top) return
      top = next
      el.dispatchEvent(new Event('scroll'))
    },
  })
}

function Chat() {
  const { scroller, content, atBottom, follow, handlers } = useFollowBottom()
  return (
    <div>
      <div ref={scroller} data-testid="list" {...handlers}>
        <div ref={content}>
          <button type="button">Allow</button>
        </div>
      </div>
      {!atBottom && <button type="button">Scroll to the latest message</button>}
      <button type="button" onClick={follow}>
        Send
      </button>
    </div>
  )
}

const list = (): HTMLElement => screen.getByTestId('list')
function open(): void {
  render(<Chat />)
  giveGeometry(list())
}
const fromBottom = (): number => geometry.content - list().scrollTop - geometry.viewport

beforeEach(() => {
  Object.assign(geometry, { content: 1000, viewport: 400 })
  observed.length = 0
  globalThis.ResizeObserver = LayoutObserver
})
afterEach(cleanup)

describe('the chat following the agent', () => {
  it('stays at the end when a permission prompt docks below it and through the answer after it', () => {
    open()
    fireEvent.click(screen.getByText('Send'))
    expect(fromBottom()).toBe(0)

    // The prompt docks under the list: the list's viewport shrinks by its height.
    layout({ viewport: 250 })
    expect(fromBottom()).toBe(0)
    // Rows measured above move the scroll position without the user touching anything.
    act(() => {
      list().scrollTop -= 300
    })
    // The answer and "Review changes" arrive after the prompt.
    layout({ content: 1600 })
    expect(fromBottom()).toBe(0)
    expect(screen.queryByText('Scroll to the latest message')).toBeNull()
  })

  it('lets go when the user scrolls up, and a sent message brings the end back and follows again', () => {
    open()
    fireEvent.click(screen.getByText('Send'))
    fireEvent.wheel(list(), { deltaY: -120 })
    act(() => {
      list().scrollTop = 100
    })
    layout({ content: 1400 })
    expect(list().scrollTop).toBe(100)
    expect(screen.getByText('Scroll to the latest message')).toBeTruthy()

    fireEvent.click(screen.getByText('Send'))
    expect(fromBottom()).toBe(0)
    layout({ content: 1900 })
    expect(fromBottom()).toBe(0)
    expect(screen.queryByText('Scroll to the latest message')).toBeNull()
  })
})
