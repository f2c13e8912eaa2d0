import { z } from 'zod'

/**
 * How hard a model reasons before it answers: `off` switches reasoning off where the
 * model allows it; the levels map per provider (see the provider layer's `reasoning.ts`).
 */
export const EFFORTS = ['off', 'low', 'medium', 'high', 'max'] as const

export const EffortSchema = z.enum(EFFORTS, { error: `expected one of ${EFFORTS.join(', ')}` })

export type Effort = z.infer<typeof EffortSchema>

export function isEffort(value: string): value is Effort {
  return (EFFORTS as readonly string[]).includes(value)
}
