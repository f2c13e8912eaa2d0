import type { z } from 'zod'
import { contracts, eventChannel } from '@shared/ipc'
import { ErrorNames, HotaruError } from '@shared/errors'
import type { BusChannel } from './events'

/** Every declared event with its schema, e.g. `fs:changed` → `FsChanged`. */
export const busEvents: ReadonlyMap<BusChannel, z.ZodType> = new Map(
  Object.entries(contracts).flatMap(([domain, contract]) =>
    Object.entries(contract.events as Record<string, z.ZodType>).map(([event, schema]) => [eventChannel(domain, event) as BusChannel, schema] as const),
  ),
)

/**
 * Checks a payload against its channel's schema: an unknown channel or a payload the
 * schema refuses throws `InvalidEvent` naming the channel and what is wrong.
 */
export function checkEvent(channel: string, payload: unknown): void {
  const schema = busEvents.get(channel as BusChannel)
  if (!schema) throw new HotaruError(ErrorNames.InvalidEvent, { message: `no event "${channel}" is declared in the IPC contracts`, channel })
  const result = schema.safeParse(payload)
  if (!result.success) {
    // Issues as the router reports an invalid call payload: `{path, message}`.
    const issues = result.error.issues.map((issue) => ({ path: issue.path.map(String).join('.') || '(root)', message: issue.message }))
    const text = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')
    throw new HotaruError(ErrorNames.InvalidEvent, { message: `${channel} payload does not match its schema: ${text}`, channel, issues })
  }
}
