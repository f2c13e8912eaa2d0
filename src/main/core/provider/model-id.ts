import { ProviderErrorNames, providerError } from './errors'

export interface ModelRef {
  providerId: string
  /** Everything after the first slash; OpenRouter ids keep their own slash. */
  modelId: string
}

/** Splits `provider/model`; the model part may contain further slashes. */
export function parseModelId(id: string): ModelRef {
  const slash = id.indexOf('/')
  if (slash <= 0 || slash === id.length - 1) {
    throw providerError(ProviderErrorNames.ProviderUnknown, {
      message: `"${id}" is not a model id: expected "provider/model", e.g. "anthropic/claude-sonnet-4-5"`,
      retryable: false,
    })
  }
  return { providerId: id.slice(0, slash), modelId: id.slice(slash + 1) }
}
