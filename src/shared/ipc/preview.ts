import { z } from 'zod'
import { ProjectId } from '../schema/project'
import { PreviewConsoleEntry, PreviewConsoleEvent, PreviewStatus } from '../schema/preview'
import type { DomainContract } from './define'

/** The pane's rectangle in the window, in CSS pixels of the app's page. */
export const PreviewBounds = z
  .object({
    x: z.number().min(0).max(100_000),
    y: z.number().min(0).max(100_000),
    width: z.number().min(0).max(100_000),
    height: z.number().min(0).max(100_000),
  })
  .strict()
export type PreviewBounds = z.infer<typeof PreviewBounds>

export const PreviewOpened = z.discriminatedUnion('action', [
  /**
   * The page loads in the pane. `frameUrl` is what an iframe loads (`hotaru serve`:
   * the page through the loopback server's preview origin); null where the app shows it in its own view.
   */
  z.object({ action: z.literal('load'), url: z.string(), frameUrl: z.string().nullable() }),
  /** Not a page of the project: it opened in the system browser (desktop app). */
  z.object({ action: z.literal('opened'), url: z.string() }),
  /** Not a page of the project: the client opens it itself (a new browser tab under `serve`). */
  z.object({ action: z.literal('external'), url: z.string() }),
])
export type PreviewOpened = z.infer<typeof PreviewOpened>

/** Where the pane's page is, after each navigation and load (desktop app). */
export const PreviewNavigation = z.object({
  url: z.string(),
  title: z.string(),
  canGoBack: z.boolean(),
  canGoForward: z.boolean(),
  loading: z.boolean(),
  /** Why the last load failed (connection refused: the server is not running). */
  error: z.string().optional(),
})
export type PreviewNavigation = z.infer<typeof PreviewNavigation>

const Ref = { projectId: ProjectId }

export const previewContract = {
  methods: {
    /** Starts the project's dev server (launch configuration `name`, else the first or a detected one); resolves when its URL answers. */
    start: { input: z.object({ projectId: ProjectId, name: z.string().min(1).max(100).optional() }).strict(), output: PreviewStatus },
    status: { input: z.object({ projectId: ProjectId }).strict(), output: PreviewStatus },
    /** Stops the dev server and everything it started. */
    stop: { input: z.object({ projectId: ProjectId }).strict(), output: PreviewStatus },
    /** The page's recent console messages, exceptions and failed requests. */
    console: { input: z.object({ projectId: ProjectId, since: z.number().optional() }).strict(), output: z.array(PreviewConsoleEntry) },
    /** Whether the preview may load `url` (loopback on the project's own ports, or typed by the user: `typed` adds it). */
    allowUrl: { input: z.object({ projectId: ProjectId, url: z.string().max(2000), typed: z.boolean().optional() }).strict(), output: z.object({ allowed: z.boolean() }) },
    /**
     * Shows a page in the project's pane. `typed`: the user entered it in the address bar (its loopback origin
     * is allowed from then on); a page that is not on loopback opens in the system browser instead.
     */
    open: {
      input: z.object({ ...Ref, url: z.string().min(1).max(2000), typed: z.boolean().optional() }).strict(),
      output: PreviewOpened,
    },
    /** Where the pane is on screen (desktop app: the page's view follows it); null hides the page. */
    bounds: { input: z.object({ ...Ref, bounds: PreviewBounds.nullable() }).strict(), output: z.object({}) },
    go: { input: z.object({ ...Ref, action: z.enum(['back', 'forward', 'reload']) }).strict(), output: z.object({}) },
    /** The pane closed: its page is unloaded. */
    close: { input: z.object(Ref).strict(), output: z.object({}) },
  },
  events: {
    status: PreviewStatus,
    console: PreviewConsoleEvent,
    navigated: PreviewNavigation,
  },
  /** What its methods can fail with, besides the failures of any call (`CallErrors`). */
  errors: [
    'PreviewConfigNotFound', 'PreviewConfigInvalid', 'PreviewRestricted', 'PreviewStartFailed',
    'PreviewNotRunning', 'PreviewUrlRefused', 'PreviewNoBrowser', 'PreviewNoElement', 'ProjectNotOpen',
  ],
} satisfies DomainContract<'preview'>
