import { useEffect, useRef, useState } from 'react'
import type { HotaruBridge } from '@shared/ipc'
import type { PreviewBounds } from '@shared/ipc/preview'
import { unwrap } from '../../ipc'
import { background } from '../../lib/background'
import { registerController } from './preview-store'

/** True while a dialog, popover or palette is on screen: the app's native view would cover it. */
function useDialogOpen(): boolean {
  const [open, setOpen] = useState(() => document.querySelector('[role="dialog"]') !== null)
  useEffect(() => {
    const check = (): void => setOpen(document.querySelector('[role="dialog"]') !== null)
    const observer = new MutationObserver(check)
    observer.observe(document.body, { childList: true, subtree: true })
    return () => observer.disconnect()
  }, [])
  return open
}

/** The element's rectangle, clipped to its scroll container: the view must not spill over the rest of the app. */
export function visibleBounds(element: Element, clip: Element): PreviewBounds | null {
  const r = element.getBoundingClientRect()
  const c = clip.getBoundingClientRect()
  const x = Math.max(r.left, c.left)
  const y = Math.max(r.top, c.top)
  const width = Math.min(r.right, c.right) - x
  const height = Math.min(r.bottom, c.bottom) - y
  if (width < 1 || height < 1) return null
  return { x: Math.round(x), y: Math.round(y), width: Math.round(width), height: Math.round(height) }
}

/**
 * The desktop app: the page is a native view of its own (own session, no preload,
 * sandboxed) that main lays over this placeholder. The placeholder reports where it
 * is whenever that changes, and null when it is hidden or covered by a dialog.
 */
export function PreviewView({ bridge, projectId }: { bridge: HotaruBridge; projectId: string }) {
  const placeholder = useRef<HTMLDivElement | null>(null)
  const dialogOpen = useDialogOpen()
  useEffect(
    () =>
      registerController(projectId, {
        go: (action) => background('preview go', unwrap(bridge.preview.go({ projectId, action }))),
      }),
    [bridge, projectId],
  )
  useEffect(() => {
    const element = placeholder.current
    // The stage scrolls a device larger than the pane: the view shows only what of it is in sight.
    const clip = element?.closest('.preview-stage')
    if (!element || !clip) return
    let last = ''
    const report = (bounds: PreviewBounds | null): void => {
      const key = JSON.stringify(bounds)
      if (key === last) return
      last = key
      background('preview bounds', unwrap(bridge.preview.bounds({ projectId, bounds })))
    }
    const measure = (): void => report(dialogOpen ? null : visibleBounds(element, clip))
    const observer = new ResizeObserver(measure)
    observer.observe(element)
    observer.observe(clip)
    window.addEventListener('resize', measure)
    clip.addEventListener('scroll', measure)
    measure()
    return () => {
      observer.disconnect()
      window.removeEventListener('resize', measure)
      clip.removeEventListener('scroll', measure)
      report(null)
    }
  }, [bridge, projectId, dialogOpen])
  return <div ref={placeholder} className="preview-surface" data-testid="preview-view" />
}
