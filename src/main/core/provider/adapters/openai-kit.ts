/** Everything that needs the OpenAI SDK's code, loaded on first use (see `ClientCache`). */
export { default as OpenAI } from 'openai'
export { completeOpenAI, streamOpenAI } from './openai-adapter'
export { completeResponses, streamResponses } from './responses-adapter'
