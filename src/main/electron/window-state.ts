import { screen, type BrowserWindow, type Rectangle } from 'electron'
import type { KvRepo } from '../core/storage/kv-repo'

const KEY = 'window.main'

interface SavedState {
  bounds: Rectangle
  maximized: boolean
}

/** Last bounds, if they are still visible on one of the current displays. */
export function loadWindowState(kv: KvRepo): SavedState | undefined {
  const saved = kv.get<SavedState>(KEY)
  if (!saved?.bounds) return undefined
  const visible = screen.getAllDisplays().some(({ workArea: a }) => {
    const b = saved.bounds
    return b.x < a.x + a.width && b.x + b.width > a.x && b.y < a.y + a.height && b.y + b.height > a.y
  })
  return visible ? saved : undefined
}

export function trackWindowState(window: BrowserWindow, kv: KvRepo): void {
  let timer: NodeJS.Timeout | undefined
  const save = (): void => {
    if (window.isDestroyed()) return
    kv.set(KEY, { bounds: window.getNormalBounds(), maximized: window.isMaximized() } satisfies SavedState)
  }
  const debounced = (): void => {
    clearTimeout(timer)
    timer = setTimeout(save, 300)
  }
  window.on('resize', debounced)
  window.on('move', debounced)
  window.on('close', () => {
    clearTimeout(timer)
    save()
  })
}
