/** Everything that needs the Anthropic SDK's code, loaded on first use (see `ClientCache`). */
export { default as Anthropic } from '@anthropic-ai/sdk'
export { completeAnthropic, streamAnthropic } from './anthropic-adapter'
