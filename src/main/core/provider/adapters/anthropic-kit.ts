/** Everything that needs the Anthropic SDK's code, loaded on first use (see `ClientCache`). */
export { AnthropicClient } from './anthropic-client'
export { completeAnthropic, streamAnthropic } from './anthropic-adapter'
