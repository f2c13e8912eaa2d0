import type { Domain, EventEnvelope, EventName, EventPayload } from '@shared/ipc'

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

/** Checks one payload before it is delivered; throws when it does not match (`event-check.ts`). */
export type EventCheck = (channel: string, payload: unknown) => void

/**
 * Whether the bus checks every payload: in tests and development (`NODE_ENV` `test` or
 * `development`) and with `HOTARU_CHECK_EVENTS=1`; `HOTARU_CHECK_EVENTS=0` turns it off.
 * A release build trusts the compiler (the payload types are the schemas' types).
 */
export function eventChecksWanted(env: NodeJS.ProcessEnv): boolean {
  if (env.HOTARU_CHECK_EVENTS !== undefined) return env.HOTARU_CHECK_EVENTS === '1'
  return env.NODE_ENV === 'test' || env.NODE_ENV === 'development'
}

/**
 * The payload check when `eventChecksWanted(env)`, else undefined. Loaded on demand: the check
 * needs every contract schema, which a release CLI run does not otherwise load.
 */
export async function loadEventCheck(env: NodeJS.ProcessEnv): Promise<EventCheck | undefined> {
  return eventChecksWanted(env) ? (await import('./event-check')).checkEvent : undefined
}
