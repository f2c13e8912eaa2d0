/** Which SDK and wire format a provider speaks. */
export type ProviderKind = 'anthropic' | 'openai' | 'openai-compatible'

/**
 * How an OpenAI-compatible provider carries reasoning. `field` is the delta/message
 * field. `sendBack: 'always'` sends the provider's own reasoning back on every
 * assistant message of the session, in every later request, and the field (empty when
 * there is none, e.g. a message another model wrote) on every assistant message with
 * tool calls: DeepSeek and Kimi thinking models answer 400 to any request whose history
 * holds a tool-call message without it, not only inside the current tool loop.
 * `never`: reasoning stays with the provider (OpenRouter, Ollama, LM Studio, xAI and
 * configured providers, whose APIs ignore or reject it on input).
 */
export interface ReasoningWire {
  field: 'reasoning_content' | 'reasoning'
  sendBack: 'never' | 'always'
  /** `router`: the request grades reasoning with one normalized `reasoning` object whatever the upstream model. */
  request?: 'router'
}

export interface ProviderPreset {
  id: string
  name: string
  kind: ProviderKind
  baseURL: string
  /** Environment variables read first, in order. */
  env: { apiKey: readonly string[]; baseURL: readonly string[] }
  /** Local servers accept any key; we send a placeholder because the SDK requires one. */
  requiresKey: boolean
  headers?: Readonly<Record<string, string>>
  reasoning?: ReasoningWire
  /** Local runtimes have no price; their usage costs nothing. */
  free?: boolean
  /** Where the account's credit or plan is managed, named in billing errors. */
  billing?: string
}

export const PROVIDER_PRESETS: Readonly<Record<string, ProviderPreset>> = {
  anthropic: {
    id: 'anthropic',
    name: 'Anthropic',
    kind: 'anthropic',
    // The Anthropic SDK appends /v1/messages itself: its base is the server root.
    baseURL: 'https://api.anthropic.com',
    env: { apiKey: ['ANTHROPIC_API_KEY'], baseURL: ['ANTHROPIC_BASE_URL'] },
    requiresKey: true,
    billing: 'Plans & Billing in the Anthropic Console',
  },
  openai: {
    id: 'openai',
    name: 'OpenAI',
    kind: 'openai',
    // The OpenAI SDK appends /chat/completions: its base includes /v1.
    baseURL: 'https://api.openai.com/v1',
    env: { apiKey: ['OPENAI_API_KEY'], baseURL: ['OPENAI_BASE_URL'] },
    requiresKey: true,
    billing: 'Billing in the OpenAI platform settings',
  },
  deepseek: {
    id: 'deepseek',
    name: 'DeepSeek',
    kind: 'openai-compatible',
    baseURL: 'https://api.deepseek.com/v1',
    env: { apiKey: ['DEEPSEEK_API_KEY'], baseURL: ['DEEPSEEK_BASE_URL'] },
    requiresKey: true,
    billing: 'Top up on the DeepSeek platform',
    reasoning: { field: 'reasoning_content', sendBack: 'always' },
  },
  moonshot: {
    id: 'moonshot',
    name: 'Moonshot (Kimi)',
    kind: 'openai-compatible',
    baseURL: 'https://api.moonshot.ai/v1',
    env: { apiKey: ['MOONSHOT_API_KEY', 'KIMI_API_KEY'], baseURL: ['MOONSHOT_BASE_URL'] },
    requiresKey: true,
    billing: 'Recharge in the Moonshot platform console',
    reasoning: { field: 'reasoning_content', sendBack: 'always' },
  },
  openrouter: {
    id: 'openrouter',
    name: 'OpenRouter',
    kind: 'openai-compatible',
    baseURL: 'https://openrouter.ai/api/v1',
    env: { apiKey: ['OPENROUTER_API_KEY'], baseURL: ['OPENROUTER_BASE_URL'] },
    requiresKey: true,
    billing: 'Credits in the OpenRouter settings',
    // OpenRouter attributes traffic to the calling app by these headers.
    headers: { 'HTTP-Referer': 'https://github.com/hotaru-desktop', 'X-Title': 'Hotaru' },
    reasoning: { field: 'reasoning', sendBack: 'never', request: 'router' },
  },
  ollama: {
    id: 'ollama',
    name: 'Ollama',
    kind: 'openai-compatible',
    baseURL: 'http://127.0.0.1:11434/v1',
    env: { apiKey: [], baseURL: ['OLLAMA_BASE_URL'] },
    requiresKey: false,
    reasoning: { field: 'reasoning', sendBack: 'never' },
    free: true,
  },
  lmstudio: {
    id: 'lmstudio',
    name: 'LM Studio',
    kind: 'openai-compatible',
    baseURL: 'http://127.0.0.1:1234/v1',
    env: { apiKey: [], baseURL: ['LMSTUDIO_BASE_URL'] },
    requiresKey: false,
    reasoning: { field: 'reasoning_content', sendBack: 'never' },
    free: true,
  },
}
