/**
 * The model catalog, shipped as data. Limits are tokens; prices are USD per million
 * tokens as published by each provider. A model missing here still works: it gets
 * `DEFAULT_MODEL` limits and no pricing (cost is then unknown, not zero).
 *
 * Sources (checked 2026-12-07): the model unions and deprecation list of the bundled
 * `@anthropic-ai/sdk` and `openai` packages, and the providers' model pages.
 */

export interface ModelPricing {
  input: number
  output: number
  /** Price of input tokens read from the prompt cache. */
  cacheRead?: number
  /** Price of input tokens written to the prompt cache. */
  cacheWrite?: number
}

/** Values Anthropic's `output_config.effort` takes. */
export type AnthropicEffortValue = 'low' | 'medium' | 'high' | 'xhigh' | 'max'
/** Values OpenAI's `reasoning_effort` / Responses `reasoning.effort` take (each model accepts a subset). */
export type OpenAIEffortValue = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max'

/**
 * How a model is asked to reason, one kind per wire protocol (see `reasoning.ts` for
 * how an effort maps onto each):
 * - `none`: the model does not reason; nothing is sent.
 * - `anthropic-adaptive`: `thinking: {type: 'adaptive'}` plus `output_config.effort`.
 *   `off` says how thinking is switched off: leave `thinking` out (`omit`), send
 *   `{type: 'disabled'}` because the model thinks unless told not to (`disable`), or
 *   not at all (`never`: thinking is always on).
 * - `anthropic-budget`: `thinking: {type: 'enabled', budget_tokens}`; `interleaved`
 *   models need the `interleaved-thinking-2025-05-14` beta to think between tool calls.
 * - `openai-effort`: `reasoning_effort` (Chat) / `reasoning.effort` (Responses), with
 *   the values this model accepts.
 * - `reasoning-content`: DeepSeek/Qwen style, reasoning arrives in `reasoning_content`;
 *   `control` says what switches it: the model itself (`model`: a thinking model always
 *   thinks), Qwen's `enable_thinking` flag, or DeepSeek's `thinking: {type}`.
 * - `ollama-think`: Ollama's `think`, carried on its OpenAI-compatible endpoint as
 *   `reasoning_effort` (`none` switches it off); `levels` models (gpt-oss) take low/medium/high.
 */
export type ReasoningCapability =
  | { kind: 'none' }
  | { kind: 'anthropic-adaptive'; effort: readonly AnthropicEffortValue[]; off: 'omit' | 'disable' | 'never' }
  | { kind: 'anthropic-budget'; interleaved: boolean }
  | { kind: 'openai-effort'; effort: readonly OpenAIEffortValue[] }
  | { kind: 'reasoning-content'; control: 'model' | 'enable-thinking' | 'thinking-type' }
  | { kind: 'ollama-think'; levels: boolean }

export type ReasoningKind = ReasoningCapability['kind']

/** Booleans derived from the catalog entry, for callers that only need yes/no. */
export interface ModelCapabilities {
  tools: boolean
  reasoning: boolean
  images: boolean
  /**
   * Whether the provider's server-side web search works with this model. Unset: it follows
   * the API (the Anthropic Messages API has it for every current model; Chat Completions
   * has none); `false` turns it off for a model that lacks it.
   */
  webSearch?: boolean
}

/** A model the provider has deprecated: it stops working on `retiresOn` (ISO date). */
export interface Deprecation {
  retiresOn: string
  /** `provider/model` to move to. */
  successor: string
}

export interface CatalogEntry {
  name: string
  context: number
  output: number
  pricing?: ModelPricing
  tools?: boolean
  images: boolean
  reasoning: ReasoningCapability
  /** The provider's documented default effort, where it has one. */
  defaultEffort?: 'low' | 'medium' | 'high'
  deprecated?: Deprecation
  /** Which OpenAI wire API serves the model; the catalog's rule decides when unset (see `catalog.ts`). */
  api?: ModelApi
}

/** Chat Completions or the Responses API (OpenAI and compatible servers). */
export type ModelApi = 'chat' | 'responses'

/** OpenAI's codex models not in the catalog: they reason, see images and write long patches, on the Responses API only. */
export const OPENAI_CODEX_DEFAULT: Omit<CatalogEntry, 'name'> = {
  context: 400_000,
  output: 128_000,
  images: true,
  reasoning: { kind: 'openai-effort', effort: ['low', 'medium', 'high'] },
  defaultEffort: 'medium',
  api: 'responses',
}

/** codex-max takes `xhigh` on top. */
export const OPENAI_CODEX_MAX_EFFORT: readonly OpenAIEffortValue[] = ['low', 'medium', 'high', 'xhigh']

const NO_REASONING: ReasoningCapability = { kind: 'none' }

export const DEFAULT_MODEL: Omit<CatalogEntry, 'name'> = {
  context: 128_000,
  output: 8_192,
  images: false,
  reasoning: NO_REASONING,
}

/** Anthropic prices cache reads at 0.1× and 5-minute cache writes at 1.25× the input price. */
const anthropicPricing = (input: number, output: number): ModelPricing => ({
  input,
  output,
  cacheRead: input / 10,
  cacheWrite: input * 1.25,
})

const ALL_ANTHROPIC: readonly AnthropicEffortValue[] = ['low', 'medium', 'high', 'xhigh', 'max']

interface ClaudeSpec {
  context?: number
  output?: number
  reasoning: ReasoningCapability
  defaultEffort?: 'low' | 'medium' | 'high'
  deprecated?: Deprecation
}

const claude = (name: string, pricing: ModelPricing, spec: ClaudeSpec): CatalogEntry => ({
  name,
  context: spec.context ?? 1_000_000,
  output: spec.output ?? 128_000,
  pricing,
  images: true,
  reasoning: spec.reasoning,
  ...(spec.defaultEffort ? { defaultEffort: spec.defaultEffort } : {}),
  ...(spec.deprecated ? { deprecated: spec.deprecated } : {}),
})

/** Fable and Opus 5.5 think on every request (adaptive, always on). */
const alwaysOn: ReasoningCapability = { kind: 'anthropic-adaptive', effort: ALL_ANTHROPIC, off: 'never' }
/** The 5.x generation thinks unless told not to. */
const onByDefault: ReasoningCapability = { kind: 'anthropic-adaptive', effort: ALL_ANTHROPIC, off: 'disable' }
/** Claude 4 manual budgets think between tool calls only with the interleaved-thinking beta. */
const budget: ReasoningCapability = { kind: 'anthropic-budget', interleaved: true }

/**
 * Defaults for a provider's models missing from the catalog. Every current Claude
 * model has a 1M context, takes images and thinks adaptively; a larger output guess
 * than 64k would make an older model reject max_tokens.
 */
export const PROVIDER_DEFAULTS: Readonly<Record<string, Omit<CatalogEntry, 'name'>>> = {
  anthropic: {
    context: 1_000_000,
    output: 64_000,
    images: true,
    reasoning: { kind: 'anthropic-adaptive', effort: ['low', 'medium', 'high', 'max'], off: 'omit' },
    defaultEffort: 'high',
  },
}

const OPENAI_GPT6: readonly OpenAIEffortValue[] = ['none', 'low', 'medium', 'high', 'xhigh', 'max']
/** GPT-6 Astra and the 6.2 models reject `none` (and `minimal`). */
const OPENAI_NO_NONE: readonly OpenAIEffortValue[] = ['low', 'medium', 'high', 'xhigh', 'max']
const OPENAI_GPT5: readonly OpenAIEffortValue[] = ['minimal', 'low', 'medium', 'high']
const OPENAI_GPT51: readonly OpenAIEffortValue[] = ['none', 'low', 'medium', 'high']
const OPENAI_O: readonly OpenAIEffortValue[] = ['low', 'medium', 'high']

const openai = (
  name: string,
  context: number,
  output: number,
  pricing: ModelPricing,
  effort: readonly OpenAIEffortValue[] | undefined,
  deprecated?: Deprecation,
): CatalogEntry => ({
  name,
  context,
  output,
  pricing,
  images: true,
  reasoning: effort ? { kind: 'openai-effort', effort } : NO_REASONING,
  ...(effort ? { defaultEffort: 'medium' as const } : {}),
  ...(deprecated ? { deprecated } : {}),
})

const GPT6_CONTEXT = 1_050_000

export const MODEL_CATALOG: Readonly<Record<string, Readonly<Record<string, CatalogEntry>>>> = {
  anthropic: {
    'claude-fable-5-2': claude('Claude Fable 5.2', anthropicPricing(8, 40), { reasoning: alwaysOn, defaultEffort: 'high' }),
    'claude-mythos-5-2': claude('Claude Mythos 5.2', anthropicPricing(8, 40), { reasoning: alwaysOn, defaultEffort: 'high' }),
    'claude-opus-5-5': claude('Claude Opus 5.5', anthropicPricing(4, 20), { reasoning: alwaysOn, defaultEffort: 'medium' }),
    'claude-sonnet-5-5': claude('Claude Sonnet 5.5', anthropicPricing(2, 10), { reasoning: onByDefault, defaultEffort: 'high' }),
    'claude-haiku-5-5': claude('Claude Haiku 5.5', anthropicPricing(0.1, 0.5), { reasoning: onByDefault, defaultEffort: 'medium' }),
    'claude-fable-5-1': claude('Claude Fable 5.1', anthropicPricing(10, 50), { reasoning: alwaysOn, defaultEffort: 'high' }),
    'claude-mythos-5-1': claude('Claude Mythos 5.1', anthropicPricing(10, 50), { reasoning: alwaysOn, defaultEffort: 'high' }),
    'claude-fable-5': claude('Claude Fable 5', anthropicPricing(10, 50), { reasoning: alwaysOn, defaultEffort: 'high' }),
    'claude-mythos-5': claude('Claude Mythos 5', anthropicPricing(10, 50), { reasoning: alwaysOn, defaultEffort: 'high' }),
    'claude-opus-5': claude('Claude Opus 5', anthropicPricing(5, 25), { reasoning: onByDefault, defaultEffort: 'high' }),
    'claude-sonnet-5': claude('Claude Sonnet 5', anthropicPricing(2, 10), { reasoning: onByDefault, defaultEffort: 'high' }),
    'claude-opus-4-8': claude('Claude Opus 4.8', anthropicPricing(5, 25), {
      reasoning: { kind: 'anthropic-adaptive', effort: ALL_ANTHROPIC, off: 'omit' },
      defaultEffort: 'high',
    }),
    'claude-opus-4-7': claude('Claude Opus 4.7', anthropicPricing(5, 25), {
      reasoning: { kind: 'anthropic-adaptive', effort: ALL_ANTHROPIC, off: 'omit' },
      defaultEffort: 'high',
    }),
    'claude-opus-4-6': claude('Claude Opus 4.6', anthropicPricing(5, 25), {
      context: 200_000,
      output: 64_000,
      reasoning: { kind: 'anthropic-adaptive', effort: ['low', 'medium', 'high', 'max'], off: 'omit' },
      defaultEffort: 'high',
    }),
    'claude-sonnet-4-6': claude('Claude Sonnet 4.6', anthropicPricing(3, 15), {
      context: 200_000,
      output: 64_000,
      reasoning: { kind: 'anthropic-adaptive', effort: ['low', 'medium', 'high'], off: 'omit' },
      defaultEffort: 'high',
    }),
    'claude-haiku-4-5': claude('Claude Haiku 4.5', anthropicPricing(1, 5), { context: 200_000, output: 64_000, reasoning: budget }),
    'claude-opus-4-5': claude('Claude Opus 4.5', anthropicPricing(5, 25), {
      context: 200_000,
      output: 64_000,
      reasoning: budget,
      deprecated: { retiresOn: '2027-01-22', successor: 'anthropic/claude-opus-5-5' },
    }),
    'claude-sonnet-4-5': claude('Claude Sonnet 4.5', anthropicPricing(3, 15), {
      context: 200_000,
      output: 64_000,
      reasoning: budget,
      deprecated: { retiresOn: '2026-11-30', successor: 'anthropic/claude-sonnet-5-5' },
    }),
    // Older Claude 4 models: no longer in the SDK's model list, kept so requests to them stay valid.
    'claude-opus-4-1': claude('Claude Opus 4.1', anthropicPricing(15, 75), { context: 200_000, output: 32_000, reasoning: budget }),
    'claude-opus-4-0': claude('Claude Opus 4', anthropicPricing(15, 75), { context: 200_000, output: 32_000, reasoning: budget }),
    'claude-sonnet-4-0': claude('Claude Sonnet 4', anthropicPricing(3, 15), { context: 200_000, output: 64_000, reasoning: budget }),
    'claude-mythos-preview': claude('Claude Mythos Preview', anthropicPricing(10, 50), {
      reasoning: alwaysOn,
      defaultEffort: 'high',
      deprecated: { retiresOn: '2026-06-30', successor: 'anthropic/claude-mythos-5-2' },
    }),
  },
  openai: {
    'gpt-6.2-astra': openai('GPT-6.2 Astra', GPT6_CONTEXT, 128_000, { input: 8, output: 40, cacheRead: 0.4 }, OPENAI_NO_NONE),
    'gpt-6.2-sol': openai('GPT-6.2 Sol', GPT6_CONTEXT, 128_000, { input: 2, output: 10, cacheRead: 0.2 }, OPENAI_NO_NONE),
    'gpt-6.1-sol': openai('GPT-6.1 Sol', GPT6_CONTEXT, 128_000, { input: 2, output: 10, cacheRead: 0.2 }, OPENAI_GPT6),
    'gpt-6-astra': openai('GPT-6 Astra', GPT6_CONTEXT, 128_000, { input: 10, output: 50, cacheRead: 1 }, OPENAI_NO_NONE),
    'gpt-6-sol': openai('GPT-6 Sol', GPT6_CONTEXT, 128_000, { input: 2, output: 10, cacheRead: 0.2 }, OPENAI_GPT6),
    'gpt-6-luna': openai('GPT-6 Luna', GPT6_CONTEXT, 128_000, { input: 0.1, output: 0.5, cacheRead: 0.01 }, OPENAI_GPT6),
    'gpt-5.6-sol': openai('GPT-5.6 Sol', GPT6_CONTEXT, 128_000, { input: 4, output: 20, cacheRead: 0.4 }, OPENAI_GPT6),
    'gpt-5.6-luna': openai('GPT-5.6 Luna', GPT6_CONTEXT, 128_000, { input: 0.2, output: 1.2, cacheRead: 0.02 }, OPENAI_GPT6),
    'gpt-5.1': openai('GPT-5.1', 400_000, 128_000, { input: 1.25, output: 10, cacheRead: 0.125 }, OPENAI_GPT51),
    'gpt-5': openai('GPT-5', 400_000, 128_000, { input: 1.25, output: 10, cacheRead: 0.125 }, OPENAI_GPT5),
    'gpt-5-mini': openai('GPT-5 mini', 400_000, 128_000, { input: 0.25, output: 2, cacheRead: 0.025 }, OPENAI_GPT5),
    'gpt-5-nano': openai('GPT-5 nano', 400_000, 128_000, { input: 0.05, output: 0.4, cacheRead: 0.005 }, OPENAI_GPT5),
    'gpt-4.1': openai('GPT-4.1', 1_047_576, 32_768, { input: 2, output: 8, cacheRead: 0.5 }, undefined),
    'gpt-4.1-mini': openai('GPT-4.1 mini', 1_047_576, 32_768, { input: 0.4, output: 1.6, cacheRead: 0.1 }, undefined),
    'gpt-4.1-nano': openai('GPT-4.1 nano', 1_047_576, 32_768, { input: 0.1, output: 0.4, cacheRead: 0.025 }, undefined),
    'gpt-4o': openai('GPT-4o', 128_000, 16_384, { input: 2.5, output: 10, cacheRead: 1.25 }, undefined),
    'gpt-4o-mini': openai('GPT-4o mini', 128_000, 16_384, { input: 0.15, output: 0.6, cacheRead: 0.075 }, undefined),
    o3: openai('o3', 200_000, 100_000, { input: 2, output: 8, cacheRead: 0.5 }, OPENAI_O),
    'o4-mini': openai('o4-mini', 200_000, 100_000, { input: 1.1, output: 4.4, cacheRead: 0.275 }, OPENAI_O),
  },
  deepseek: {
    'deepseek-chat': {
      name: 'DeepSeek Chat',
      context: 128_000,
      output: 8_192,
      pricing: { input: 0.28, output: 0.42, cacheRead: 0.028 },
      images: false,
      reasoning: NO_REASONING,
    },
    'deepseek-reasoner': {
      name: 'DeepSeek Reasoner',
      context: 128_000,
      output: 64_000,
      pricing: { input: 0.28, output: 0.42, cacheRead: 0.028 },
      images: false,
      reasoning: { kind: 'reasoning-content', control: 'model' },
    },
  },
  moonshot: {
    'kimi-k2-0905-preview': {
      name: 'Kimi K2',
      context: 262_144,
      output: 16_384,
      pricing: { input: 0.6, output: 2.5, cacheRead: 0.15 },
      images: false,
      reasoning: NO_REASONING,
    },
    'kimi-k2-turbo-preview': {
      name: 'Kimi K2 Turbo',
      context: 262_144,
      output: 16_384,
      pricing: { input: 1.15, output: 8, cacheRead: 0.15 },
      images: false,
      reasoning: NO_REASONING,
    },
    'kimi-k2-thinking': {
      name: 'Kimi K2 Thinking',
      context: 262_144,
      output: 16_384,
      pricing: { input: 0.6, output: 2.5, cacheRead: 0.15 },
      images: false,
      reasoning: { kind: 'reasoning-content', control: 'model' },
    },
  },
}

/**
 * Local model families known to think, by name prefix (`qwen3:8b`, `gpt-oss:20b`…). Local
 * runtimes serve whatever the user pulled, so these are matched by family, not listed.
 */
export const LOCAL_THINKING_FAMILIES: ReadonlyArray<{ prefix: RegExp; levels: boolean }> = [
  { prefix: /^gpt-oss\b/, levels: true },
  { prefix: /^(qwen3|deepseek-r1|deepseek-v3\.1|magistral)\b/, levels: false },
]

/**
 * Short names and dated snapshots that resolve to a catalog entry, so
 * `anthropic/claude-sonnet-4-5-20250929` finds `claude-sonnet-4-5`.
 */
export const MODEL_ALIASES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  anthropic: {
    'claude-opus-4': 'claude-opus-4-0',
    'claude-sonnet-4': 'claude-sonnet-4-0',
  },
}
