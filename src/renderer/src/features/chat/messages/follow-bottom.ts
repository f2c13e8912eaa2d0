import { useCallback, useEffect, useRef, useState } from 'react'

/** Within this many pixels of the end counts as "at the bottom": new output keeps it in view. */
const PIN_SLACK = 48
/** Keys that scroll a focused list upwards or away from the end. */
const SCROLL_KEYS = new Set(['ArrowUp', 'PageUp', 'Home'])

export interface FollowBottom {
  /** For the scroll container and the content inside it. */
  scroller: React.RefObject<HTMLDivElement | null>
  content: React.RefObject<HTMLDivElement | null>
  /** False once the user scrolled away from the end (the "jump to latest" control shows). */
  atBottom: boolean
  /** Scroll to the end and follow again: the jump control, and a message the user just sent. */
  follow(): void
  /** Handlers for the scroll container. */
  handlers: {
    onScroll(): void
    onWheel(event: { deltaY: number }): void
    onTouchMove(): void
    onKeyDown(event: { key: string }): void
    onPointerDown(event: { target: EventTarget; currentTarget: EventTarget }): void
  }
}

/**
 * Keeps a scroll container at its end while the user is there. Only the user's own scrolling (wheel,
 * touch, keys, the scrollbar) lets go of the end: a scroll the layout causes (a prompt docked below
 * the list shrinking it, rows measured above) never does. The list follows both its content growing
 * and its own viewport shrinking.
 */
export function useFollowBottom(): FollowBottom {
  const scroller = useRef<HTMLDivElement>(null)
  const content = useRef<HTMLDivElement>(null)
  const pinned = useRef(true)
  // Set by a gesture of the user; a scroll without one is the layout's, not a wish to read back.
  const userScrolling = useRef(false)
  const [atBottom, setAtBottom] = useState(true)

  const toBottom = useCallback(() => {
    const el = scroller.current
    if (el) el.scrollTop = el.scrollHeight
  }, [])

  useEffect(() => {
    const observer = new ResizeObserver(() => {
      if (pinned.current) toBottom()
    })
    if (content.current) observer.observe(content.current)
    if (scroller.current) observer.observe(scroller.current)
    return () => observer.disconnect()
  }, [toBottom])

  const follow = useCallback(() => {
    pinned.current = true
    userScrolling.current = false
    setAtBottom(true)
    toBottom()
  }, [toBottom])

  const onScroll = (): void => {
    const el = scroller.current
    if (!el) return
    const bottom = el.scrollHeight - el.scrollTop - el.clientHeight < PIN_SLACK
    if (bottom) {
      pinned.current = true
      userScrolling.current = false
      setAtBottom(true)
      return
    }
    if (!userScrolling.current) {
      if (pinned.current) toBottom()
      return
    }
    pinned.current = false
    setAtBottom(false)
  }

  const gesture = (): void => {
    userScrolling.current = true
  }
  return {
    scroller,
    content,
    atBottom,
    follow,
    handlers: {
      onScroll,
      onWheel: (event) => {
        if (event.deltaY < 0) gesture()
      },
      onTouchMove: gesture,
      onKeyDown: (event) => {
        if (SCROLL_KEYS.has(event.key)) gesture()
      },
      // A press on the container itself, not on a row inside it, is a press on its scrollbar.
      onPointerDown: (event) => {
        if (event.target === event.currentTarget) gesture()
      },
    },
  }
}
