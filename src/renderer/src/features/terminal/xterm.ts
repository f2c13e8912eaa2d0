import type { FitAddon } from '@xterm/addon-fit'
import type { SearchAddon } from '@xterm/addon-search'
import type { WebglAddon } from '@xterm/addon-webgl'
import type { Terminal } from '@xterm/xterm'

export interface XtermModules {
  Terminal: typeof Terminal
  FitAddon: typeof FitAddon
  SearchAddon: typeof SearchAddon
  WebglAddon: typeof WebglAddon
}

let loading: Promise<XtermModules> | null = null

/** xterm and its addons load with the first terminal, not with the app shell. */
export function loadXterm(): Promise<XtermModules> {
  loading ??= Promise.all([
    import('@xterm/xterm'),
    import('@xterm/addon-fit'),
    import('@xterm/addon-search'),
    import('@xterm/addon-webgl'),
    import('@xterm/xterm/css/xterm.css'),
  ]).then(([xterm, fit, search, webgl]) => ({
    Terminal: xterm.Terminal,
    FitAddon: fit.FitAddon,
    SearchAddon: search.SearchAddon,
    WebglAddon: webgl.WebglAddon,
  }))
  return loading
}
