/** Provider ids as people write them; an id we do not list is shown as it is. */
const PROVIDER_NAMES: Record<string, string> = {
  anthropic: 'Anthropic',
  openai: 'OpenAI',
  google: 'Google',
  deepseek: 'DeepSeek',
  openrouter: 'OpenRouter',
  ollama: 'Ollama',
  lmstudio: 'LM Studio',
  xai: 'xAI',
  mistral: 'Mistral',
  groq: 'Groq',
}

function providerName(providerId: unknown): string {
  if (typeof providerId !== 'string' || providerId === '') return 'The model provider'
  return PROVIDER_NAMES[providerId] ?? providerId
}

/**
 * What a failed turn says first, in plain words; the error's own name and message go behind "Details".
 * Null: the error's message is already written for people (billing, no key) or there is nothing to add.
 */
export function friendlyError(name: string, data: { message: string; providerId?: unknown; attempts?: unknown }): string | null {
  const who = providerName(data.providerId)
  const tries = typeof data.attempts === 'number' && data.attempts > 1 ? ` (tried ${data.attempts} times)` : ''
  switch (name) {
    case 'ProviderConnection':
      return `Couldn't reach ${who}${tries}. Check your internet connection, or that the server is running, then retry.`
    case 'ProviderOverloaded':
      return `${who} is overloaded right now${tries}. Retry in a moment.`
    case 'ProviderServer':
      return `${who} had a problem on its side${tries}. Retry in a moment.`
    case 'ProviderRateLimit':
      return `${who} is limiting how fast requests can be sent${tries}. Wait a little, then retry.`
    case 'ProviderStreamInterrupted':
      return `The connection to ${who} dropped in the middle of the answer. Resume to continue from there.`
    case 'ProviderBadResponse':
      return `${who} answered with something that is not a model response: check the provider's address in Settings.`
    case 'ProviderBadRequest':
      return `${who} refused the request.`
    case 'ContextOverflow':
      return 'The conversation no longer fits the model. Compact it or start a new session.'
    case 'ProviderUnknown':
      return 'This model is not set up. Pick another model, or add its provider in Settings.'
    default:
      return null
  }
}

/** The retry line while a provider does not answer: short, with the cause for those who want it. */
export function retryLine(attempt: number, message: string, secondsLeft: number | null): string {
  const wait = secondsLeft !== null && secondsLeft > 0 ? ` in ${secondsLeft} s` : ''
  const cause = /ECONNREFUSED|fetch failed|ENOTFOUND|ETIMEDOUT|connect/i.test(message) ? 'the provider cannot be reached' : 'the provider did not answer'
  return `Retrying${wait} (attempt ${attempt}): ${cause}`
}

/**
 * A missing or refused key, in plain words (where keys can be set, in config terms, goes behind "Details").
 * A key refused by the provider (401/403) reads differently from none at all.
 */
export function keyNeeded(providerId: string, message: string): string {
  const who = providerName(providerId)
  if (/^No API key/i.test(message)) return `${who} needs an API key before it can answer. Add one, or use a model that runs on this computer.`
  return `${who} did not accept the API key. Check it in Settings, or use a model that runs on this computer.`
}
