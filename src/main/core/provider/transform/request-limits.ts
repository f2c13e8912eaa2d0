import type { ModelInfo } from '../catalog'
import type { ChatRequest } from '../types'

/** Default output budget: large enough for big edits, small enough to keep latency sane. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 32_000

/** The output budget of a request that sets none. */
export function defaultMaxTokens(model: ModelInfo): number {
  return Math.min(model.limit.output, DEFAULT_MAX_OUTPUT_TOKENS)
}

export function resolveMaxTokens(request: ChatRequest, model: ModelInfo): number {
  return request.maxTokens ?? defaultMaxTokens(model)
}

export function imageOmittedText(model: ModelInfo): string {
  return `[image omitted: ${model.id} does not accept images]`
}
