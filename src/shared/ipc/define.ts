import type { z } from 'zod'
import type { Channels, Domain } from './channels'
import type { ErrorName, IpcResult } from '../errors'

export interface MethodSchema {
  input: z.ZodType
  output: z.ZodType
}

/** A domain's contract; the `satisfies` check ties its keys to `channels.ts`. */
export type DomainContract<D extends Domain> = {
  methods: { [M in Channels[D]['methods'][number]]: MethodSchema }
  events: { [E in Channels[D]['events'][number]]: z.ZodType }
  /**
   * The named errors its methods answer with (see `@shared/errors`), besides `CallErrors`, which any
   * call can get. The renderer and the CLI handle these by name.
   */
  errors: readonly ErrorName[]
}

/** What any call can fail with, whatever its domain: refused by the router or the transport, or a bug. */
export const CallErrors = ['InvalidPayload', 'UnknownMethod', 'Unauthorized', 'Forbidden', 'Disconnected', 'Internal'] as const satisfies readonly ErrorName[]

export interface EventEnvelope<T = unknown> {
  /** Project the event belongs to; absent for app-wide events. */
  projectId?: string
  /** Increases by one per scope (project or app) so a client can detect gaps. */
  seq: number
  payload: T
}
export type { IpcResult }
