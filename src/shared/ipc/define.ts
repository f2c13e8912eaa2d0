import type { z } from 'zod'
import type { Channels, Domain } from './channels'
import type { IpcResult } from '../errors'

export interface MethodSchema {
  input: z.ZodType
  output: z.ZodType
}

/** A domain's contract; the `satisfies` check ties its keys to `channels.ts`. */
export type DomainContract<D extends Domain> = {
  methods: { [M in Channels[D]['methods'][number]]: MethodSchema }
  events: { [E in Channels[D]['events'][number]]: z.ZodType }
}

export interface EventEnvelope<T = unknown> {
  /** Project the event belongs to; absent for app-wide events. */
  projectId?: string
  /** Increases by one per scope (project or app) so a client can detect gaps. */
  seq: number
  payload: T
}
export type { IpcResult }
