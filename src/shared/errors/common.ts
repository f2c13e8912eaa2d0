import { z } from 'zod'
import { defineError, defineOpenError } from './define'

/** Where in a payload zod found a problem, and what (the router's `InvalidPayload`, the bus's `InvalidEvent`). */
const Issues = z.array(z.object({ path: z.string(), message: z.string() }))

/** Failures any method can answer with: the router's own, and the ones every domain shares. */
export const CommonErrors = {
  /** The input of a call does not match its contract, or is refused as it stands (a path of the wrong kind…). */
  InvalidPayload: defineError('InvalidPayload', { channel: z.string().optional(), issues: Issues.optional(), path: z.string().optional() }),
  /** Core published an event its contract does not declare, or with a payload its schema refuses (checked in tests and development). */
  InvalidEvent: defineError('InvalidEvent', { channel: z.string(), issues: Issues.optional() }),
  UnknownMethod: defineError('UnknownMethod', { channel: z.string() }),
  /** `hotaru serve` without the right token. */
  Unauthorized: defineError('Unauthorized', {}),
  /** A sender or an origin that may not call, or a limit reached. */
  Forbidden: defineError('Forbidden', { origin: z.string().optional() }),
  /** What the call names does not exist (a file, a terminal, a pending ask…); the field says which. */
  NotFound: defineError('NotFound', {
    path: z.string().optional(),
    id: z.string().optional(),
    name: z.string().optional(),
    imageId: z.string().optional(),
    partId: z.string().optional(),
    messageId: z.string().optional(),
    checkpointId: z.string().optional(),
  }),
  NotADirectory: defineError('NotADirectory', { path: z.string().optional() }),
  /** A path that leaves the project (`..`, an absolute path, a link out of it). */
  OutsideWorkspace: defineError('OutsideWorkspace', { path: z.string().optional() }),
  /** A special file (FIFO, socket, device) that is never opened: reading one can block forever. */
  NotARegularFile: defineError('NotARegularFile', { path: z.string(), kind: z.string() }),
  ProjectNotOpen: defineError('ProjectNotOpen', { projectId: z.string().optional() }),
  /** The project folder was deleted, renamed or unmounted while open: nothing recreates it. */
  ProjectMissing: defineError('ProjectMissing', { path: z.string().optional() }),
  Unsupported: defineError('Unsupported', {}),
  /** The user (or closing the app) stopped it. One name for a stopped request, turn or call of the renderer. */
  Aborted: defineError('Aborted', { providerId: z.string().optional(), model: z.string().optional(), retryable: z.boolean().optional() }),
  /** The renderer lost its connection before the answer came; the call may or may not have run. */
  Disconnected: defineError('Disconnected', {}),
  /** Anything not foreseen: a bug, or a failure of the machine the message describes. */
  Internal: defineOpenError('Internal', {}),
} as const
