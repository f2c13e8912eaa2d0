import type { ModelInfo } from '../catalog'
import type { ChatRequest } from '../types'

/** Default output budget: large enough for big edits, small enough to keep latency sane. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 32_000

export function resolveMaxTokens(request: ChatRequest, model: ModelInfo): number {
  const cap = Math.min(model.limit.output, DEFAULT_MAX_OUTPUT_TOKENS)
  return request.maxTokens ?? cap
}

export function imageOmittedText(model: ModelInfo): string {
  return `[image omitted: ${model.id} does not accept images]`
}
