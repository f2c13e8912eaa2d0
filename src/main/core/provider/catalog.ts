import {
  type CatalogEntry,
  DEFAULT_MODEL,
  MODEL_ALIASES,
  MODEL_CATALOG,
  type ModelCapabilities,
  type ModelPricing,
  PROVIDER_DEFAULTS,
} from './catalog-data'
import type { ModelRef } from './model-id'
import { PROVIDER_PRESETS } from './presets'
import type { ProviderSettings } from './settings'

export interface ModelInfo {
  /** `provider/model`. */
  id: string
  providerId: string
  modelId: string
  name: string
  limit: { context: number; output: number }
  /** USD per million tokens; undefined when unknown (cost is then unknown, not zero). */
  pricing?: ModelPricing
  capabilities: ModelCapabilities
  /** Anthropic thinking style (see `CatalogEntry.thinking`). */
  thinking: 'budget' | 'adaptive'
  /** False when the model is not in the catalog and got the defaults. */
  known: boolean
}

const DATE_SUFFIX = /-(\d{8}|latest)$/

function lookup(providerId: string, modelId: string): CatalogEntry | undefined {
  const models = MODEL_CATALOG[providerId]
  if (!models) return undefined
  const aliases = MODEL_ALIASES[providerId] ?? {}
  const candidates = [modelId, modelId.replace(DATE_SUFFIX, '')]
  for (const candidate of candidates) {
    const entry = models[candidate] ?? models[aliases[candidate] ?? '']
    if (entry) return entry
  }
  return undefined
}

/**
 * Router ids such as `openrouter/anthropic/claude-sonnet-4.5` name the upstream
 * vendor: reuse that vendor's entry (routers price at the vendor's list price).
 */
function lookupUpstream(modelId: string): CatalogEntry | undefined {
  const slash = modelId.indexOf('/')
  if (slash <= 0) return undefined
  const vendor = modelId.slice(0, slash)
  const model = modelId.slice(slash + 1).replace(/:.*$/, '')
  return lookup(vendor, model) ?? lookup(vendor, model.replace(/\./g, '-'))
}

export function modelInfo(ref: ModelRef, settings: ProviderSettings = {}): ModelInfo {
  const entry = lookup(ref.providerId, ref.modelId) ?? lookupUpstream(ref.modelId)
  const override = settings.providers?.[ref.providerId]?.models?.[ref.modelId]
  const base = entry ?? { ...(PROVIDER_DEFAULTS[ref.providerId] ?? DEFAULT_MODEL), name: ref.modelId }
  const free = PROVIDER_PRESETS[ref.providerId]?.free === true
  return {
    id: `${ref.providerId}/${ref.modelId}`,
    providerId: ref.providerId,
    modelId: ref.modelId,
    name: base.name,
    limit: { context: override?.contextLimit ?? base.context, output: override?.outputLimit ?? base.output },
    pricing: free ? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } : base.pricing,
    capabilities: { ...base.capabilities },
    thinking: base.thinking ?? 'budget',
    known: entry !== undefined,
  }
}

/** USD cost of one call; undefined when the model's pricing is unknown. */
export function computeCost(
  usage: { input: number; output: number; cacheRead: number; cacheWrite: number },
  pricing: ModelPricing | undefined,
): number | undefined {
  if (!pricing) return undefined
  const total =
    usage.input * pricing.input +
    usage.output * pricing.output +
    usage.cacheRead * (pricing.cacheRead ?? pricing.input) +
    usage.cacheWrite * (pricing.cacheWrite ?? pricing.input)
  return total / 1_000_000
}
