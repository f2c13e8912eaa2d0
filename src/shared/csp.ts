/**
 * The renderer's Content-Security-Policy, shared by the built index.html (meta
 * tag), the desktop app's protocol handler and `hotaru serve` (which adds its own
 * WebSocket origin and the preview origin it frames). No remote script, no eval;
 * Monaco needs blob: workers and inline styles.
 */
export function contentSecurityPolicy(
  connectSources: readonly string[] = [],
  options: { meta?: boolean; frameSources?: readonly string[] } = {},
): string {
  const directives = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "worker-src 'self' blob:",
    "font-src 'self' data:",
    "img-src 'self' data: blob:",
    ["connect-src 'self'", ...connectSources].join(' '),
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ]
  // `serve` frames the Preview pane's pages from its preview origin only; otherwise nothing may be framed.
  directives.push(`frame-src ${options.frameSources?.length ? options.frameSources.join(' ') : "'none'"}`)
  // Browsers ignore frame-ancestors in a meta tag (and warn); headers carry it.
  if (!options.meta) directives.push("frame-ancestors 'none'")
  return directives.join('; ')
}

export const CSP_META_PATTERN = /<meta http-equiv="Content-Security-Policy" content="[^"]*"\s*\/?>/
