import type { Effort } from '@shared/schema/effort'
import {
  type CatalogEntry,
  DEFAULT_MODEL,
  LOCAL_THINKING_FAMILIES,
  MODEL_ALIASES,
  MODEL_CATALOG,
  type ModelApi,
  type ModelCapabilities,
  OPENAI_CODEX_DEFAULT,
  OPENAI_CODEX_MAX_EFFORT,
  type ModelPricing,
  PROVIDER_DEFAULTS,
  type ReasoningCapability,
} from './catalog-data'
import type { ModelRef } from './model-id'
import { PROVIDER_PRESETS } from './presets'
import { defaultEffort, offeredEfforts } from './reasoning'
import type { ProviderSettings } from './settings'

/** The date deprecations are judged against: the local calendar day. */
export type Today = () => string

const isoToday: Today = () => new Date().toISOString().slice(0, 10)

export interface ModelInfo {
  /** `provider/model`. */
  id: string
  providerId: string
  modelId: string
  name: string
  limit: { context: number; output: number }
  /** USD per million tokens; undefined when unknown (cost is then unknown, not zero). */
  pricing?: ModelPricing
  /** Yes/no facts derived from the entry (`reasoning` is true for every kind but `none`). */
  capabilities: ModelCapabilities
  /** How the model is asked to reason (see `ReasoningCapability`). */
  reasoning: ReasoningCapability
  /** Effort levels a user can pick, in order; empty when there is no choice. */
  efforts: Effort[]
  /** The effort used when nobody chose one: reasoning is on wherever the model supports it. */
  defaultEffort: Effort
  /** The wire API requests use: the provider's `api` setting, else the catalog entry's, else the rule in `defaultApi`. */
  api: ModelApi
  /** Set when the provider deprecated the model; `retired` once its end-of-life date has passed. */
  deprecation?: { retiresOn: string; successor: string; retired: boolean }
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

/** Local runtimes serve what the user pulled: a model of a known thinking family thinks through `think`. */
function localReasoning(providerId: string, modelId: string): ReasoningCapability | undefined {
  if (providerId !== 'ollama') return undefined
  const family = LOCAL_THINKING_FAMILIES.find((f) => f.prefix.test(modelId))
  return family ? { kind: 'ollama-think', levels: family.levels } : undefined
}

const isCodex = (providerId: string, modelId: string): boolean => providerId === 'openai' && /codex/i.test(modelId)

/** Defaults for an OpenAI codex id the catalog does not list yet. */
function codexDefault(modelId: string): Omit<CatalogEntry, 'name'> {
  if (!/codex-max/i.test(modelId)) return OPENAI_CODEX_DEFAULT
  return { ...OPENAI_CODEX_DEFAULT, reasoning: { kind: 'openai-effort', effort: OPENAI_CODEX_MAX_EFFORT } }
}

/**
 * OpenAI's codex models exist only on the Responses API, and its reasoning models keep their
 * reasoning between turns only there; every other model, and every other provider unless its
 * config says `"api": "responses"`, speaks Chat Completions.
 */
function defaultApi(providerId: string, modelId: string, reasoning: ReasoningCapability): ModelApi {
  if (providerId !== 'openai') return 'chat'
  if (isCodex(providerId, modelId) || reasoning.kind === 'openai-effort' || /^(o\d|gpt-[56])/.test(modelId)) return 'responses'
  return 'chat'
}

export function modelInfo(ref: ModelRef, settings: ProviderSettings = {}, today: Today = isoToday): ModelInfo {
  const entry = lookup(ref.providerId, ref.modelId) ?? lookupUpstream(ref.modelId)
  const provider = settings.providers?.[ref.providerId]
  const override = provider?.models?.[ref.modelId]
  const fallback = isCodex(ref.providerId, ref.modelId) ? codexDefault(ref.modelId) : (PROVIDER_DEFAULTS[ref.providerId] ?? DEFAULT_MODEL)
  const local = localReasoning(ref.providerId, ref.modelId)
  const base: CatalogEntry = entry ?? { ...fallback, name: ref.modelId, ...(local ? { reasoning: local } : {}) }
  const free = PROVIDER_PRESETS[ref.providerId]?.free === true
  const deprecated = base.deprecated
  return {
    id: `${ref.providerId}/${ref.modelId}`,
    providerId: ref.providerId,
    modelId: ref.modelId,
    name: base.name,
    limit: { context: override?.contextLimit ?? base.context, output: override?.outputLimit ?? base.output },
    pricing: free ? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } : base.pricing,
    capabilities: { tools: base.tools ?? true, reasoning: base.reasoning.kind !== 'none', images: base.images },
    reasoning: base.reasoning,
    efforts: offeredEfforts(base.reasoning),
    defaultEffort: defaultEffort(base),
    api: provider?.api ?? base.api ?? defaultApi(ref.providerId, ref.modelId, base.reasoning),
    ...(deprecated ? { deprecation: { ...deprecated, retired: deprecated.retiresOn <= today() } } : {}),
    known: entry !== undefined,
  }
}

/** One line telling the user a model is deprecated or retired and what replaces it; undefined when it is current. */
export function deprecationNotice(model: ModelInfo): string | undefined {
  const d = model.deprecation
  if (!d) return undefined
  return d.retired
    ? `${model.id} reached its end of life on ${d.retiresOn} and may be refused; use ${d.successor} instead.`
    : `${model.id} is deprecated and stops working on ${d.retiresOn}; use ${d.successor} instead.`
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
