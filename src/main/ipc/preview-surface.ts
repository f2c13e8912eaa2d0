import type { PreviewBounds } from '@shared/ipc/preview'

/**
 * Where one client shows preview pages: the desktop app's window (a view per
 * project over the pane) or a `hotaru serve` page (an iframe of the loopback
 * server's preview origin). Each transport gives its connections one.
 */
export interface PreviewSurface {
  /**
   * Loads `url` as the project's page. `allows`: the preview's URL policy, for the
   * page's own navigations. Returns the URL an iframe loads, or null when the surface
   * shows the page itself.
   */
  open(projectId: string, url: URL, allows: (url: string) => boolean): Promise<string | null>
  bounds(projectId: string, bounds: PreviewBounds | null): void
  go(projectId: string, action: 'back' | 'forward' | 'reload'): void
  close(projectId: string): void
  /** The system browser, where the surface has one (the desktop app); a browser client opens a tab itself. */
  openExternal?(url: URL): Promise<void>
}
