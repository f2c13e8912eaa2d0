import { z } from 'zod'
import type { ErrorData, IpcResult } from '@shared/errors'
import type { EventEnvelope } from '@shared/ipc'

/** Client → server: one method call. */
export const CallMessage = z.object({
  id: z.union([z.number().int(), z.string().max(64)]),
  method: z.string().max(128),
  input: z.unknown().optional(),
})
export type CallMessage = z.infer<typeof CallMessage>

/** Server → client frames. */
export type ServerMessage =
  | { type: 'result'; id: CallMessage['id'] | null; result: IpcResult<unknown> }
  | ({ type: 'event'; channel: string } & EventEnvelope)
  | { type: 'error'; error: ErrorData }

/** Close code sent after an `Unauthorized` error frame (4000–4999 are application codes). */
export const CLOSE_UNAUTHORIZED = 4401
