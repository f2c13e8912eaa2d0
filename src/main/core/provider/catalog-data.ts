/**
 * The model catalog, shipped as data. Limits are tokens; prices are USD per million
 * tokens as published by each provider. A model missing here still works: it gets
 * `DEFAULT_MODEL` limits and no pricing (cost is then unknown, not zero).
 */

export interface ModelPricing {
  input: number
  output: number
  /** Price of input tokens read from the prompt cache. */
  cacheRead?: number
  /** Price of input tokens written to the prompt cache. */
  cacheWrite?: number
}

export interface ModelCapabilities {
  tools: boolean
  reasoning: boolean
  images: boolean
}

export interface CatalogEntry {
  name: string
  context: number
  output: number
  pricing?: ModelPricing
  capabilities: ModelCapabilities
  /**
   * How Anthropic models are asked to think: a token `budget` (older models) or
   * `adaptive` (newer models, where budgets are deprecated).
   */
  thinking?: 'budget' | 'adaptive'
}

export const DEFAULT_MODEL: Omit<CatalogEntry, 'name'> = {
  context: 128_000,
  output: 8_192,
  capabilities: { tools: true, reasoning: false, images: false },
}

const claude = (name: string, output: number, pricing: ModelPricing, reasoning = true): CatalogEntry => ({
  name,
  context: 200_000,
  output,
  pricing,
  capabilities: { tools: true, reasoning, images: true },
  thinking: 'budget',
})

/**
 * Defaults for a provider's models missing from the catalog. Every current Claude
 * model has a 200k context, takes images, can think (adaptively, on new models) and
 * writes at least 32k tokens; a larger guess would make the API reject max_tokens.
 */
export const PROVIDER_DEFAULTS: Readonly<Record<string, Omit<CatalogEntry, 'name'>>> = {
  anthropic: {
    context: 200_000,
    output: 32_000,
    capabilities: { tools: true, reasoning: true, images: true },
    thinking: 'adaptive',
  },
}

const sonnetPricing: ModelPricing = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }
const opusPricing: ModelPricing = { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 }

const openai = (
  name: string,
  context: number,
  output: number,
  pricing: ModelPricing,
  reasoning: boolean,
): CatalogEntry => ({ name, context, output, pricing, capabilities: { tools: true, reasoning, images: true } })

export const MODEL_CATALOG: Readonly<Record<string, Readonly<Record<string, CatalogEntry>>>> = {
  anthropic: {
    'claude-sonnet-4-6': claude('Claude Sonnet 4.6', 64_000, sonnetPricing),
    'claude-opus-4-6': claude('Claude Opus 4.6', 64_000, { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 }),
    'claude-opus-4-5': claude('Claude Opus 4.5', 64_000, { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 }),
    'claude-opus-4-1': claude('Claude Opus 4.1', 32_000, opusPricing),
    'claude-opus-4-0': claude('Claude Opus 4', 32_000, opusPricing),
    'claude-sonnet-4-5': claude('Claude Sonnet 4.5', 64_000, sonnetPricing),
    'claude-sonnet-4-0': claude('Claude Sonnet 4', 64_000, sonnetPricing),
    'claude-3-7-sonnet-latest': claude('Claude Sonnet 3.7', 64_000, sonnetPricing),
    'claude-haiku-4-5': claude('Claude Haiku 4.5', 64_000, { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 }),
    'claude-3-5-haiku-latest': claude(
      'Claude Haiku 3.5',
      8_192,
      { input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1 },
      false,
    ),
  },
  openai: {
    'gpt-5': openai('GPT-5', 400_000, 128_000, { input: 1.25, output: 10, cacheRead: 0.125 }, true),
    'gpt-5-mini': openai('GPT-5 mini', 400_000, 128_000, { input: 0.25, output: 2, cacheRead: 0.025 }, true),
    'gpt-5-nano': openai('GPT-5 nano', 400_000, 128_000, { input: 0.05, output: 0.4, cacheRead: 0.005 }, true),
    'gpt-4.1': openai('GPT-4.1', 1_047_576, 32_768, { input: 2, output: 8, cacheRead: 0.5 }, false),
    'gpt-4.1-mini': openai('GPT-4.1 mini', 1_047_576, 32_768, { input: 0.4, output: 1.6, cacheRead: 0.1 }, false),
    'gpt-4.1-nano': openai('GPT-4.1 nano', 1_047_576, 32_768, { input: 0.1, output: 0.4, cacheRead: 0.025 }, false),
    'gpt-4o': openai('GPT-4o', 128_000, 16_384, { input: 2.5, output: 10, cacheRead: 1.25 }, false),
    'gpt-4o-mini': openai('GPT-4o mini', 128_000, 16_384, { input: 0.15, output: 0.6, cacheRead: 0.075 }, false),
    o3: openai('o3', 200_000, 100_000, { input: 2, output: 8, cacheRead: 0.5 }, true),
    'o4-mini': openai('o4-mini', 200_000, 100_000, { input: 1.1, output: 4.4, cacheRead: 0.275 }, true),
  },
  deepseek: {
    'deepseek-chat': {
      name: 'DeepSeek Chat',
      context: 128_000,
      output: 8_192,
      pricing: { input: 0.28, output: 0.42, cacheRead: 0.028 },
      capabilities: { tools: true, reasoning: false, images: false },
    },
    'deepseek-reasoner': {
      name: 'DeepSeek Reasoner',
      context: 128_000,
      output: 64_000,
      pricing: { input: 0.28, output: 0.42, cacheRead: 0.028 },
      capabilities: { tools: true, reasoning: true, images: false },
    },
  },
  moonshot: {
    'kimi-k2-0905-preview': {
      name: 'Kimi K2',
      context: 262_144,
      output: 16_384,
      pricing: { input: 0.6, output: 2.5, cacheRead: 0.15 },
      capabilities: { tools: true, reasoning: false, images: false },
    },
    'kimi-k2-turbo-preview': {
      name: 'Kimi K2 Turbo',
      context: 262_144,
      output: 16_384,
      pricing: { input: 1.15, output: 8, cacheRead: 0.15 },
      capabilities: { tools: true, reasoning: false, images: false },
    },
    'kimi-k2-thinking': {
      name: 'Kimi K2 Thinking',
      context: 262_144,
      output: 16_384,
      pricing: { input: 0.6, output: 2.5, cacheRead: 0.15 },
      capabilities: { tools: true, reasoning: true, images: false },
    },
  },
}

/**
 * Short names and dated snapshots that resolve to a catalog entry, so
 * `anthropic/claude-sonnet-4-5-20250929` finds `claude-sonnet-4-5`.
 */
export const MODEL_ALIASES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  anthropic: {
    'claude-opus-4': 'claude-opus-4-0',
    'claude-sonnet-4': 'claude-sonnet-4-0',
    'claude-3-7-sonnet': 'claude-3-7-sonnet-latest',
    'claude-3-5-haiku': 'claude-3-5-haiku-latest',
  },
}
