import type { ErrorData, IpcResult } from '@shared/errors'

/** A failed call, as thrown to UI code. Check `name`, not the class. */
export class IpcError extends Error {
  override readonly name: string
  readonly data: ErrorData['data']

  constructor(error: ErrorData) {
    super(error.data.message)
    this.name = error.name
    this.data = error.data
  }
}

export async function unwrap<T>(pending: Promise<IpcResult<T>>): Promise<T> {
  const result = await pending
  if (!result.ok) throw new IpcError(result.error)
  return result.value
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
