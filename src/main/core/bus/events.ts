import type { z } from 'zod'
import { contracts, eventChannel, type Domain, type EventEnvelope, type EventName, type EventPayload } from '@shared/ipc'
import { ErrorNames, HotaruError } from '@shared/errors'

/**
 * The events of the bus are the events of the IPC contracts (`src/shared/ipc/<domain>.ts`):
 * the wire schema is the definition, and core publishes through it. A channel is
 * `domain:event`; its payload type is the schema's output type.
 */
export type BusChannel = { [D in Domain]: `${D}:${EventName<D>}` }[Domain]

export type BusPayload<C extends BusChannel> = C extends `${infer D extends Domain}:${infer E}`
  ? E extends EventName<D>
    ? EventPayload<D, E>
    : never
  : never

/** One published event; narrowing on `channel` types the payload. */
export type BusEvent = { [C in BusChannel]: { channel: C; envelope: EventEnvelope<BusPayload<C>> } }[BusChannel]

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
    const issues = result.error.issues.map((issue) => `${issue.path.join('.') || '(payload)'}: ${issue.message}`)
    throw new HotaruError(ErrorNames.InvalidEvent, { message: `${channel} payload does not match its schema: ${issues.join('; ')}`, channel, issues })
  }
}

/**
 * Whether the bus checks every payload: in tests and development (`NODE_ENV` `test` or
 * `development`) and with `HOTARU_CHECK_EVENTS=1`; `HOTARU_CHECK_EVENTS=0` turns it off.
 * A release build trusts the compiler (the payload types are the schemas' types).
 */
export function eventChecksWanted(env: NodeJS.ProcessEnv): boolean {
  if (env.HOTARU_CHECK_EVENTS !== undefined) return env.HOTARU_CHECK_EVENTS === '1'
  return env.NODE_ENV === 'test' || env.NODE_ENV === 'development'
}
