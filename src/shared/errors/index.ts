/**
 * Named errors that cross process boundaries as plain data `{ name, data }`.
 *
 * Every name the product can fail with is declared once, per domain, with a zod schema for its data
 * (`./common`, `./provider`, …), and gathered here. `HotaruError` takes only those names, with their
 * data; each IPC contract lists the ones its methods answer with; the renderer and the CLI switch on
 * `ErrorName` with `exhaustive` so a new name does not compile until they handle it. Callers check
 * `error.name`, never `instanceof`: an error that crossed IPC or a WebSocket is a plain object there.
 */
import type { z } from 'zod'
import { SnapshotErrors } from './checkpoint'
import { CommonErrors } from './common'
import type { ErrorDef } from './define'
import { FsErrors, ImageErrors } from './files'
import { PermissionErrors } from './permission'
import { ProviderErrors } from './provider'
import { ContextErrors, SessionErrors } from './session'
import { StorageErrors } from './storage'
import { ToolErrors } from './tool'
import { PreviewErrors, WorktreeErrors } from './worktree'

export { defineError, defineOpenError, type ErrorDef } from './define'
export { CommonErrors, ContextErrors, FsErrors, ImageErrors, PermissionErrors, ProviderErrors, SessionErrors, SnapshotErrors, StorageErrors, ToolErrors, WorktreeErrors, PreviewErrors }

/** A domain's errors, each under its own name (checked: a key that differs from its error's name does not compile). */
type Named<T> = { readonly [K in keyof T]: ErrorDef<K & string, z.ZodType<{ message: string }>> }

const named = <T extends Named<T>>(domain: T): T => domain

/** Every domain's errors by domain: a name must be unique across them (a unit test checks it). */
export const ErrorDomains = {
  common: named(CommonErrors),
  provider: named(ProviderErrors),
  session: named(SessionErrors),
  context: named(ContextErrors),
  permission: named(PermissionErrors),
  tool: named(ToolErrors),
  fs: named(FsErrors),
  image: named(ImageErrors),
  snapshot: named(SnapshotErrors),
  storage: named(StorageErrors),
  worktree: named(WorktreeErrors),
  preview: named(PreviewErrors),
} as const

/** Every error the product knows, by name. */
export const Errors = {
  ...CommonErrors,
  ...ProviderErrors,
  ...SessionErrors,
  ...ContextErrors,
  ...PermissionErrors,
  ...ToolErrors,
  ...FsErrors,
  ...ImageErrors,
  ...SnapshotErrors,
  ...StorageErrors,
  ...WorktreeErrors,
  ...PreviewErrors,
} as const

export type ErrorName = keyof typeof Errors
/** The data an error of that name carries (what `new HotaruError(name, data)` takes). */
export type ErrorDataOf<N extends ErrorName> = z.input<(typeof Errors)[N]['data']> & { message: string }
/** One named error as validated data: narrowing on `name` gives its data's type. */
export type KnownError = { [N in ErrorName]: { name: N; data: z.output<(typeof Errors)[N]['data']> } }[ErrorName]

/** An error as it travels: a known name, and data with at least a message for people. */
export interface ErrorData {
  name: ErrorName
  data: { message: string } & Record<string, unknown>
}

export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: ErrorData }

export class HotaruError<N extends ErrorName = ErrorName> extends Error {
  override readonly name: N
  /** Its data: typed by name; any field can be read (as unknown) on an error of any name. */
  readonly data: ErrorDataOf<N> & Readonly<Record<string, unknown>>

  constructor(name: N, data: ErrorDataOf<N>, options?: { cause?: unknown }) {
    super(data.message, options)
    this.name = name
    this.data = data
  }

  toData(): ErrorData {
    return { name: this.name, data: this.data }
  }

  /** The error that crossed a boundary as data, thrown again on this side; data its schema refuses becomes `Internal`. */
  static from(error: ErrorData, options?: { cause?: unknown }): HotaruError {
    const known = parseError(error)
    if (!known) return new HotaruError('Internal', { message: `${error.name}: ${error.data.message}` }, options)
    return new HotaruError(known.name, known.data, options)
  }
}

/** True for a `HotaruError` of one of these names, with its data typed accordingly. */
export function isHotaruError<N extends ErrorName>(error: unknown, ...names: N[]): error is HotaruError<N> {
  return error instanceof HotaruError && (names.length === 0 || names.some((name) => name === error.name))
}

export function isErrorName(name: unknown): name is ErrorName {
  return typeof name === 'string' && Object.hasOwn(Errors, name)
}

/** A value that claims to be one of our errors, checked against its name's schema; undefined when it is not one. */
export function parseError(value: unknown): KnownError | undefined {
  if (typeof value !== 'object' || value === null || !('name' in value)) return undefined
  const { name } = value
  if (!isErrorName(name)) return undefined
  const parsed = Errors[name].schema.safeParse(value)
  return parsed.success ? parsed.data : undefined
}

export function isErrorData(value: unknown): value is ErrorData {
  if (typeof value !== 'object' || value === null) return false
  const v = value as Record<string, unknown>
  return isErrorName(v.name) && typeof v.data === 'object' && v.data !== null && typeof (v.data as Record<string, unknown>).message === 'string'
}

/** Turns anything thrown into error data; unknown failures become `Internal`. */
export function toErrorData(error: unknown): ErrorData {
  if (error instanceof HotaruError) return error.toData()
  const message = error instanceof Error ? error.message : String(error)
  return { name: 'Internal', data: { message } }
}

/**
 * For a `switch` over error names: the `default` branch calls it, so a name added to the registry
 * and not handled is a type error there (and is reported, not ignored, if it arrives anyway).
 */
export function unhandledError(name: never): never {
  throw new Error(`unhandled error name ${String(name)}`)
}

/** The common names as constants (most callers pass the literal; both are checked). */
export const ErrorNames = {
  InvalidPayload: 'InvalidPayload',
  InvalidEvent: 'InvalidEvent',
  UnknownMethod: 'UnknownMethod',
  Unauthorized: 'Unauthorized',
  Forbidden: 'Forbidden',
  NotFound: 'NotFound',
  NotADirectory: 'NotADirectory',
  OutsideWorkspace: 'OutsideWorkspace',
  ProjectNotOpen: 'ProjectNotOpen',
  ProjectMissing: 'ProjectMissing',
  Unsupported: 'Unsupported',
  Aborted: 'Aborted',
  Internal: 'Internal',
} as const satisfies { [K in keyof typeof CommonErrors]?: K }
