import { EFFORTS, type Effort } from '@shared/schema/effort'
import type { CatalogEntry, ReasoningCapability } from './catalog-data'

/**
 * The effort levels a user can pick for a model, and how a wanted level lands on what
 * the model accepts. The wire mapping of a level lives with each request transform.
 */

const LEVEL_ORDER: readonly Effort[] = EFFORTS

/** Levels offered for a capability, in order; empty when nothing can be chosen. */
export function offeredEfforts(reasoning: ReasoningCapability): Effort[] {
  switch (reasoning.kind) {
    case 'none':
      return []
    case 'anthropic-adaptive': {
      const levels: Effort[] = reasoning.off === 'never' ? [] : ['off']
      for (const level of ['low', 'medium', 'high'] as const) if (reasoning.effort.includes(level)) levels.push(level)
      if (reasoning.effort.includes('max') || reasoning.effort.includes('xhigh')) levels.push('max')
      return levels
    }
    case 'anthropic-budget':
      return ['off', 'low', 'medium', 'high', 'max']
    case 'openai-effort': {
      const levels: Effort[] = reasoning.effort.includes('none') ? ['off'] : []
      if (reasoning.effort.includes('low') || reasoning.effort.includes('minimal')) levels.push('low')
      for (const level of ['medium', 'high'] as const) if (reasoning.effort.includes(level)) levels.push(level)
      if (reasoning.effort.includes('max') || reasoning.effort.includes('xhigh')) levels.push('max')
      return levels
    }
    case 'reasoning-content':
      // A thinking model thinks on every request: there is nothing to choose.
      return reasoning.control === 'model' ? [] : ['off', 'high']
    case 'ollama-think':
      return reasoning.levels ? ['off', 'low', 'medium', 'high'] : ['off', 'high']
  }
}

/** True when the only choice is reasoning on or off (no graded effort). */
export function isToggleOnly(reasoning: ReasoningCapability): boolean {
  const levels = offeredEfforts(reasoning)
  return levels.length === 2 && levels[0] === 'off'
}

/**
 * Reasoning is on by default wherever a model supports it: the provider's documented
 * default effort where it has one, else `medium` (graded) or on (toggles).
 */
export function defaultEffort(entry: Pick<CatalogEntry, 'reasoning' | 'defaultEffort'>): Effort {
  const levels = offeredEfforts(entry.reasoning)
  if (entry.reasoning.kind === 'none') return 'off'
  if (levels.length === 0) return 'high'
  const wanted = entry.defaultEffort ?? 'medium'
  return clampEffort(entry.reasoning, wanted)
}

/**
 * The level the model gets for a wanted level: itself when offered; `off` on a model
 * that always reasons becomes its lowest level; any other level the nearest offered one
 * that still reasons (on a toggle, every level means on).
 */
export function clampEffort(reasoning: ReasoningCapability, wanted: Effort): Effort {
  const levels = offeredEfforts(reasoning)
  if (reasoning.kind === 'none') return 'off'
  if (levels.length === 0 || levels.includes(wanted)) return wanted
  const on = levels.filter((level) => level !== 'off')
  if (wanted === 'off') return on[0] ?? 'off'
  const target = LEVEL_ORDER.indexOf(wanted)
  let best: Effort = on[0] ?? 'off'
  for (const level of on) {
    if (Math.abs(LEVEL_ORDER.indexOf(level) - target) < Math.abs(LEVEL_ORDER.indexOf(best) - target)) best = level
  }
  return best
}
