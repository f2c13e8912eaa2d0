/**
 * Where a URL the Preview pane meets goes: loaded in the pane, opened in the
 * system browser, or refused. Pure (no DOM, no Node). Which loopback URLs a page
 * may reach is the preview's `UrlPolicy` (core), passed in as `allows`.
 *
 * A preview shows the project's own dev server: loopback http(s) only. A link
 * anywhere else belongs in the system browser; a scheme that is not http(s) is
 * never followed.
 */

export type PreviewTarget =
  | { kind: 'load'; url: URL; port: number }
  | { kind: 'external'; url: URL }
  | { kind: 'refused'; reason: string }

/** The loopback names the preview's URL policy knows: `127.0.0.1`, `localhost` and `[::1]`. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '')
  return host === 'localhost' || host === '127.0.0.1' || host === '::1'
}

/** The TCP port a URL connects to (80/443 when it names none). */
export function portOf(url: URL): number {
  if (url.port) return Number(url.port)
  return url.protocol === 'https:' ? 443 : 80
}

/**
 * What the user typed into the address bar, as a URL: `5173` and `:5173` are that
 * port on localhost, `localhost:3000/x` gets `http://`, another bare host gets `https://`.
 */
export function addressToUrl(typed: string): URL | null {
  const text = typed.trim()
  if (!text) return null
  const port = /^:?(\d{1,5})(\/.*)?$/.exec(text)
  if (port) return parse(`http://localhost:${port[1]}${port[2] ?? '/'}`)
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text) || /^(javascript|data|file|about|blob):/i.test(text)) return parse(text)
  const host = text.split(/[/:?#]/)[0] ?? ''
  return parse(`${isLoopbackHost(host) ? 'http' : 'https'}://${text}`)
}

function parse(text: string): URL | null {
  try {
    return new URL(text)
  } catch {
    return null
  }
}

/**
 * Where a URL goes. `typed`: the user asked for it in the address bar, so any
 * loopback port loads; otherwise (a link, a redirect, a script) only what `allows`.
 */
export function previewTarget(raw: string | URL, allows: (url: string) => boolean, options: { typed?: boolean } = {}): PreviewTarget {
  const url = typeof raw === 'string' ? (options.typed ? addressToUrl(raw) : parse(raw)) : raw
  if (!url) return { kind: 'refused', reason: `not a URL: ${String(raw).slice(0, 200)}` }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { kind: 'refused', reason: `only http and https pages are previewed, not ${url.protocol}` }
  }
  if (url.username || url.password) return { kind: 'refused', reason: 'URLs with credentials are not previewed' }
  if (!isLoopbackHost(url.hostname)) return { kind: 'external', url }
  if (options.typed || allows(url.href)) return { kind: 'load', url, port: portOf(url) }
  return { kind: 'external', url }
}
