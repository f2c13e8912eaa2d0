import type { PortBlock } from '@shared/schema/worktree'

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1'])

/** The URL of a launch template (`${port}` replaced), checked to be an http(s) loopback URL. */
export function launchUrl(template: string, port: number): string {
  const url = new URL(template.replaceAll('${port}', String(port)))
  if (!isLoopback(url)) throw new Error(`the preview URL must be on this machine (127.0.0.1, localhost or [::1]), not ${url.host}`)
  return url.href
}

export function isLoopback(url: URL): boolean {
  return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTS.has(url.hostname)
}

function portOf(url: URL): number {
  if (url.port) return Number(url.port)
  return url.protocol === 'https:' ? 443 : 80
}

/**
 * Which URLs a preview may load: loopback URLs on the project's preview port or its worktree's
 * port block, plus origins the user typed. Everything else (another project's server, the web)
 * is refused to the agent and opened in the system browser by the pane.
 */
export class UrlPolicy {
  private readonly typed = new Set<string>()

  constructor(private readonly ports: () => { preview?: number; block: PortBlock | null }) {}

  allows(raw: string): boolean {
    if (!URL.canParse(raw)) return false
    const url = new URL(raw)
    if (url.protocol === 'about:' && url.href === 'about:blank') return true
    if (!isLoopback(url)) return false
    if (this.typed.has(url.origin)) return true
    const port = portOf(url)
    const { preview, block } = this.ports()
    if (port === preview) return true
    return block !== null && port >= block.first && port <= block.last
  }

  /** The user typed this URL (address bar): its loopback origin may be loaded from now on. */
  allowTyped(raw: string): void {
    const url = new URL(raw)
    if (!isLoopback(url)) throw new Error(`only loopback URLs can be previewed, not ${url.host}`)
    this.typed.add(url.origin)
  }
}
