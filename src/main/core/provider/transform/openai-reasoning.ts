import type { ModelInfo } from '../catalog'
import type { OpenAIEffortValue } from '../catalog-data'
import type { ProviderPreset } from '../presets'
import { clampEffort } from '../reasoning'
import type { ChatRequest } from '../types'

/**
 * The `reasoning_effort` (Chat Completions) / `reasoning.effort` (Responses) value for a
 * request to an `openai-effort` model; undefined sends nothing. `off` is `none` where the
 * model accepts it, else its lowest value (it cannot stop reasoning); `max` is the
 * model's top value (`max`, else `xhigh`).
 */
export function openaiEffortValue(request: ChatRequest, model: ModelInfo): OpenAIEffortValue | undefined {
  const capability = model.reasoning
  if (!request.reasoning || capability.kind !== 'openai-effort') return undefined
  const accepted = capability.effort
  if (request.reasoning.effort === 'off') return accepted.includes('none') ? 'none' : accepted[0]
  const effort = clampEffort(capability, request.reasoning.effort)
  if (effort === 'max') return accepted.includes('max') ? 'max' : 'xhigh'
  if (effort === 'low' && !accepted.includes('low')) return 'minimal'
  return effort === 'off' ? undefined : effort
}

/** Body fields an OpenAI-compatible server takes to switch or grade reasoning (on top of the standard ones). */
export type CompatReasoningFields = {
  reasoning_effort?: string
  enable_thinking?: boolean
  thinking?: { type: 'enabled' | 'disabled' }
  reasoning?: { effort: 'low' | 'medium' | 'high' } | { enabled: false }
}

/** The reasoning fields of a request to an OpenAI-compatible provider, per the model's kind and the preset's dialect. */
export function compatReasoningFields(request: ChatRequest, model: ModelInfo, preset: ProviderPreset): CompatReasoningFields {
  const capability = model.reasoning
  if (!request.reasoning || capability.kind === 'none') return {}
  const effort = clampEffort(capability, request.reasoning.effort)
  // Routers take one normalized `reasoning` object whatever the upstream model's own API is.
  if (preset.reasoning?.request === 'router') {
    if (capability.kind === 'reasoning-content' && capability.control === 'model') return {}
    if (effort === 'off') return { reasoning: { enabled: false } }
    return { reasoning: { effort: effort === 'max' ? 'high' : effort } }
  }
  switch (capability.kind) {
    case 'openai-effort': {
      const value = openaiEffortValue(request, model)
      return value ? { reasoning_effort: value } : {}
    }
    case 'reasoning-content':
      if (capability.control === 'enable-thinking') return { enable_thinking: effort !== 'off' }
      if (capability.control === 'thinking-type') return { thinking: { type: effort === 'off' ? 'disabled' : 'enabled' } }
      return {}
    case 'ollama-think':
      // Ollama's OpenAI endpoint turns `reasoning_effort` into `think`; `none` is the only way to switch it off there.
      if (effort === 'off') return { reasoning_effort: 'none' }
      return { reasoning_effort: effort === 'max' ? 'high' : effort }
    // Claude behind a compatible gateway other than a router: gateways agree on no field for its thinking
    // (Anthropic's own compatibility endpoint ignores `reasoning_effort` and takes `thinking`, others map
    // `reasoning_effort`), so nothing is sent and the gateway's default applies.
    case 'anthropic-adaptive':
    case 'anthropic-budget':
      return {}
  }
}
