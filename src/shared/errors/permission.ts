import { z } from 'zod'
import { defineError } from './define'

/** Refusals of the permission engine. */
export const PermissionErrors = {
  /** A configured rule denies it; nobody was asked. */
  PermissionDenied: defineError('PermissionDenied', { permission: z.string(), pattern: z.string() }),
  /** The user rejected the ask. With feedback the model gets the text; without it the turn stops. */
  PermissionRejected: defineError('PermissionRejected', { requestId: z.string(), feedback: z.string().optional() }),
  /** The ask was withdrawn before anyone answered (its turn ended). */
  PermissionCancelled: defineError('PermissionCancelled', {}),
  /** The sandbox is switched on but cannot run here: nothing runs unsandboxed instead. */
  SandboxUnavailable: defineError('SandboxUnavailable', { platform: z.string(), backend: z.string().optional() }),
} as const
