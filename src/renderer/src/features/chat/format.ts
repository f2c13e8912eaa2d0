import type { Usage } from '@shared/schema/session'

export function formatTokens(n: number): string {
  if (n < 1000) return String(n)
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`
  return `${(n / 1_000_000).toFixed(2)}M`
}

/**
 * A reasoning block's size: the count the provider reported for the step, else an
 * estimate from its text (about 4 characters a token), marked "≈".
 */
export function reasoningTokensLabel(text: string, reported: number | undefined): string {
  if (reported !== undefined) return `${formatTokens(reported)} tokens`
  return `≈${formatTokens(Math.ceil(text.length / 4))} tokens`
}

export function formatCost(usd: number): string {
  if (usd === 0) return '$0'
  if (usd < 0.01) return `$${usd.toFixed(4)}`
  return `$${usd.toFixed(usd < 1 ? 3 : 2)}`
}

/** Tokens the model saw for a step: everything sent (cached or not) plus what it wrote. */
export function contextTokens(usage: Usage): number {
  return usage.input + usage.cacheRead + usage.cacheWrite + usage.output
}

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    reasoning: (a.reasoning ?? 0) + (b.reasoning ?? 0),
  }
}

export const ZERO_USAGE: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 }

export function relativeTime(ms: number, now = Date.now()): string {
  const s = Math.round((now - ms) / 1000)
  if (s < 45) return 'just now'
  if (s < 3600) return `${Math.round(s / 60)}m ago`
  if (s < 86_400) return `${Math.round(s / 3600)}h ago`
  if (s < 7 * 86_400) return `${Math.round(s / 86_400)}d ago`
  return new Date(ms).toLocaleDateString()
}
