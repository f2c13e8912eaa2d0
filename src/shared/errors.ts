/**
 * Named errors that cross process boundaries as plain data `{ name, data }`.
 * Callers check `error.name`, never `instanceof`: an error that crossed IPC or a
 * WebSocket is a plain object on the other side.
 */
export interface ErrorData {
  name: string
  data: { message: string } & Record<string, unknown>
}

export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: ErrorData }

export class HotaruError extends Error {
  override readonly name: string
  readonly data: ErrorData['data']

  constructor(name: string, data: ErrorData['data'], options?: { cause?: unknown }) {
    super(data.message, options)
    this.name = name
    this.data = data
  }

  toData(): ErrorData {
    return { name: this.name, data: this.data }
  }
}

/** The error names the product uses; each domain may add its own. */
export const ErrorNames = {
  InvalidPayload: 'InvalidPayload',
  /** Core published an event its contract does not declare, or with a payload its schema refuses (checked in tests and development). */
  InvalidEvent: 'InvalidEvent',
  UnknownMethod: 'UnknownMethod',
  Unauthorized: 'Unauthorized',
  Forbidden: 'Forbidden',
  NotFound: 'NotFound',
  NotADirectory: 'NotADirectory',
  OutsideWorkspace: 'OutsideWorkspace',
  ProjectNotOpen: 'ProjectNotOpen',
  /** The project folder was deleted, renamed or unmounted while open: nothing recreates it. */
  ProjectMissing: 'ProjectMissing',
  Unsupported: 'Unsupported',
  Internal: 'Internal',
} as const

export type ErrorName = (typeof ErrorNames)[keyof typeof ErrorNames]

export function isErrorData(value: unknown): value is ErrorData {
  if (typeof value !== 'object' || value === null) return false
  const v = value as Record<string, unknown>
  return typeof v.name === 'string' && typeof v.data === 'object' && v.data !== null
}

/** Turns anything thrown into error data; unknown failures become `Internal`. */
export function toErrorData(error: unknown): ErrorData {
  if (error instanceof HotaruError) return error.toData()
  const message = error instanceof Error ? error.message : String(error)
  return { name: ErrorNames.Internal, data: { message } }
}
