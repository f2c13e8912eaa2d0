import type { PreviewConsoleEntry } from '@shared/schema/preview'

/** An element named by CSS selector or by the text it shows (the first visible match). */
export type ElementTarget = { selector: string } | { text: string }

export interface ScreenshotOptions {
  /** Only this element (its bounding box); default the viewport. */
  target?: ElementTarget
  /** The image is scaled down to at most this width (CSS pixels × scale); default 1280. */
  maxWidth?: number
  /** JPEG quality 1–100; default 70. */
  quality?: number
}

export interface Screenshot {
  mediaType: 'image/jpeg' | 'image/png'
  /** The image bytes. */
  data: Buffer
  width: number
  height: number
  /** The page's URL when it was taken. */
  url: string
}

/**
 * A browser showing one project's preview, driven by the agent tools. Two implementations: the
 * system Chromium over the DevTools protocol, headless (`hotaru serve`, the CLI), and the desktop
 * app's own pane (its webContents). Every method refuses a URL the preview may not load.
 */
export interface BrowserDriver {
  /** Loads `url` and waits for its load event. */
  navigate(url: string): Promise<void>
  /** The page's current URL. */
  url(): Promise<string>
  reload(): Promise<void>
  screenshot(options?: ScreenshotOptions): Promise<Screenshot>
  /** Clicks the element's centre, as a user would. */
  click(target: ElementTarget): Promise<void>
  /** Focuses the element and types `text` into it (key by key); `submit` presses Enter after. */
  type(target: ElementTarget, text: string, options?: { submit?: boolean }): Promise<void>
  /** Memory the browser's processes take (bytes; proportional set size where the OS tells it), for the bench. */
  memory?(): Promise<{ bytes: number; processes: number }>
  close(): Promise<void>
}

export interface DriverOptions {
  /** The project or worktree previewed (the desktop app drives that folder's pane; the service always names it). */
  projectId?: string
  /** Where the page's console messages, exceptions and failed requests go (the preview's console log). */
  onConsole(entry: PreviewConsoleEntry): void
  /** Whether the page may load this URL (see `UrlPolicy`); other navigations are stopped. */
  allows(url: string): boolean
}

/** Opens a browser for a preview: the CDP one, or the desktop pane's. */
export type DriverFactory = (options: DriverOptions) => Promise<BrowserDriver>
