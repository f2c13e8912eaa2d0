import { BaseAnthropic } from '@anthropic-ai/sdk/client'
import { Messages } from '@anthropic-ai/sdk/resources/messages/messages'

/**
 * The Anthropic SDK's client with the one API we call (Messages). The SDK's default client
 * builds every resource it has (batches, files, models, skills, the beta and admin APIs…) and
 * its module imports all of them: several hundred kB that each start parses and runs for
 * nothing. Transport, retries, errors and streaming are the SDK's own (`BaseAnthropic`).
 */
export class AnthropicClient extends BaseAnthropic {
  messages: Messages = new Messages(this)
}
