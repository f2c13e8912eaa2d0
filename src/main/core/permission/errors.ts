import { HotaruError } from '@shared/errors'
import type { Rule } from './rule'

export const PermissionErrorNames = {
  /** A configured rule denies it; nobody was asked. */
  Denied: 'PermissionDenied',
  /** The user rejected the ask. With feedback the model gets the text; without it the turn stops. */
  Rejected: 'PermissionRejected',
} as const

export class PermissionDeniedError extends HotaruError {
  constructor(
    readonly permission: string,
    readonly pattern: string,
    readonly rule: Rule | undefined,
  ) {
    const by = rule ? ` by the rule "${rule.permission}": { "${rule.pattern}": "deny" }` : ''
    super(PermissionErrorNames.Denied, {
      message: `Permission "${permission}" for "${pattern}" is denied${by}. Do not retry it; choose another approach or ask the user.`,
      permission,
      pattern,
    })
  }
}

export class PermissionRejectedError extends HotaruError {
  constructor(
    readonly requestId: string,
    readonly feedback?: string,
  ) {
    super(PermissionErrorNames.Rejected, {
      message: feedback
        ? `The user rejected this call and said: ${feedback}`
        : 'The user rejected this call.',
      requestId,
      ...(feedback ? { feedback } : {}),
    })
  }
}

/** True when `error` is a permission refusal (checked by name, so it also works on serialized errors). */
export function isPermissionError(error: unknown): error is PermissionDeniedError | PermissionRejectedError {
  const name = (error as { name?: unknown } | null)?.name
  return name === PermissionErrorNames.Denied || name === PermissionErrorNames.Rejected
}
