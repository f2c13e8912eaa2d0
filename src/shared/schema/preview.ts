import { z } from 'zod'
import { ProjectId } from './project'

/** Where a preview's launch configuration came from. */
export const PreviewSource = z.enum(['launch.json', 'package.json', 'vite', 'next', 'static'])
export type PreviewSource = z.infer<typeof PreviewSource>

/**
 * The dev server of one project or worktree. `starting` until its URL answers, then `ready`;
 * `failed` when it could not start or exited before answering; `exited` when it ended after
 * being ready; `stopped` before the first start and after `stop`.
 */
export const PreviewState = z.enum(['stopped', 'starting', 'ready', 'failed', 'exited'])
export type PreviewState = z.infer<typeof PreviewState>

export const PreviewStatus = z.object({
  projectId: ProjectId,
  state: PreviewState,
  /** The configuration's name (`dev`, `static`, a launch.json entry). */
  name: z.string().optional(),
  source: PreviewSource.optional(),
  /** The command run (absent for the built-in static server). */
  command: z.string().optional(),
  /** The URL the preview opens (loopback, on `port`). */
  url: z.string().optional(),
  port: z.number().int().optional(),
  /** The terminal tab showing the server's output (absent for the built-in static server). */
  terminalId: z.string().optional(),
  pid: z.number().int().optional(),
  /** A server was already answering on the project's port (started outside the preview): shown, never stopped by it. */
  attached: z.boolean().optional(),
  /** Why it failed or exited. */
  error: z.string().optional(),
  startedAt: z.number().optional(),
  readyAt: z.number().optional(),
})
export type PreviewStatus = z.infer<typeof PreviewStatus>

/** A console message of the page, an uncaught exception, or a request that failed. */
export const PreviewConsoleEntry = z.object({
  kind: z.enum(['console', 'exception', 'request']),
  level: z.enum(['error', 'warning', 'info', 'log', 'debug']),
  text: z.string(),
  /** The script (console, exception) or the request's URL. */
  url: z.string().optional(),
  line: z.number().int().optional(),
  /** ms since the epoch. */
  at: z.number(),
})
export type PreviewConsoleEntry = z.infer<typeof PreviewConsoleEntry>

export const PreviewConsoleEvent = z.object({ projectId: ProjectId, entry: PreviewConsoleEntry })
export type PreviewConsoleEvent = z.infer<typeof PreviewConsoleEvent>
