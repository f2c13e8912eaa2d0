import { useEffect, useRef } from 'react'
import { useStore } from 'zustand'
import { z } from 'zod'
import { PreviewConsoleEntry } from '@shared/schema/preview'
import { pageUrlOf } from './preview-actions'
import { addConsole, applyNavigation, registerController, type PreviewStore } from './preview-store'

/** What the preview origin's client script posts from inside the page (`serve`). */
const FrameMessage = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('console'),
    entry: PreviewConsoleEntry.omit({ at: true }).extend({ text: z.string().max(10_000), url: z.string().max(8192).optional() }),
  }),
  z.object({
    kind: z.literal('navigated'),
    url: z.string().max(8192),
    title: z.string().max(4096),
    canGoBack: z.boolean(),
    canGoForward: z.boolean(),
  }),
])

/**
 * `hotaru serve`: the page in an iframe of the loopback server's preview origin (a
 * different origin from this UI). It speaks to the pane only through postMessage,
 * checked for the frame's origin and window.
 */
export function PreviewFrame({ projectId, store }: { projectId: string; store: PreviewStore }) {
  const frame = useRef<HTMLIFrameElement | null>(null)
  const frameUrl = useStore(store, (s) => s.frameUrl)
  useEffect(() => {
    if (!frameUrl) return
    const origin = new URL(frameUrl).origin
    const onMessage = (event: MessageEvent<unknown>): void => {
      if (event.origin !== origin || event.source !== frame.current?.contentWindow) return
      const parsed = FrameMessage.safeParse(event.data)
      if (!parsed.success) return
      const message = parsed.data
      if (message.kind === 'console') {
        store.setState((s) => addConsole(s, { ...message.entry, at: Date.now() }))
        return
      }
      store.setState((s) =>
        applyNavigation(s, {
          url: s.url ? pageUrlOf(message.url, frameUrl, s.url) : message.url,
          title: message.title,
          canGoBack: message.canGoBack,
          canGoForward: message.canGoForward,
          loading: false,
        }),
      )
    }
    window.addEventListener('message', onMessage)
    const unregister = registerController(projectId, {
      go(action) {
        if (action === 'reload') store.setState({ loading: true })
        frame.current?.contentWindow?.postMessage({ hotaruPreview: 1, action }, origin)
      },
    })
    return () => {
      window.removeEventListener('message', onMessage)
      unregister()
    }
  }, [frameUrl, projectId, store])
  if (!frameUrl) return null
  return (
    <iframe
      ref={frame}
      className="preview-surface"
      title="Preview"
      data-testid="preview-frame"
      src={frameUrl}
      // Its own origin kept (dev servers need it); no top navigation; popups (external links) escape to real tabs.
      sandbox="allow-scripts allow-same-origin allow-forms allow-modals allow-popups allow-popups-to-escape-sandbox allow-downloads"
      referrerPolicy="no-referrer"
      onLoad={() => store.setState({ loading: false })}
    />
  )
}
