import type { Layout } from 'react-resizable-panels'
import type { LayoutView } from '../../stores/project-layout'

const DEFAULT_MAIN = { tree: 20, center: 52, preview: 0, right: 28 }
const DEFAULT_CENTER = { editor: 68, terminal: 32 }

/**
 * The sizes a panel group mounts with: the saved ones when they fit the panels
 * present, else defaults; panels that are switched off start at 0 so nothing
 * opens and then snaps shut after the first paint.
 */
function fit(saved: Record<string, number> | undefined, defaults: Record<string, number>, hidden: Set<string>, filler: string): Layout {
  const ids = Object.keys(defaults)
  // A panel added since the sizes were saved (and hidden now) does not void them.
  const usable = saved && ids.every((id) => typeof saved[id] === 'number' || hidden.has(id)) && Object.keys(saved).every((id) => ids.includes(id))
  const sizes: Record<string, number> = { ...(usable ? saved : defaults) }
  for (const id of hidden) {
    sizes[filler] = (sizes[filler] ?? 0) + (sizes[id] ?? 0)
    sizes[id] = 0
  }
  const total = ids.reduce((sum, id) => sum + (sizes[id] ?? 0), 0)
  if (total <= 0) return { ...defaults }
  return Object.fromEntries(ids.map((id) => [id, ((sizes[id] ?? 0) * 100) / total]))
}

export function initialMainLayout(view: LayoutView, withRight: boolean): Layout {
  const defaults: Record<string, number> = withRight ? DEFAULT_MAIN : { tree: DEFAULT_MAIN.tree, center: 100 - DEFAULT_MAIN.tree, preview: 0 }
  // The Preview pane starts closed in every tab: its page loads when asked for.
  const hidden = new Set<string>(['preview'])
  if (!view.sidebar) hidden.add('tree')
  if (withRight && !view.right) hidden.add('right')
  return fit(view.panels.main, defaults, hidden, 'center')
}

export function initialCenterLayout(view: LayoutView): Layout {
  return fit(view.panels.center, DEFAULT_CENTER, view.terminal ? new Set() : new Set(['terminal']), 'editor')
}
