import { BaseAnthropic } from '@anthropic-ai/sdk/client'
import { Messages } from '@anthropic-ai/sdk/resources/messages/messages'

/**
 * The SDK's own notices about a deprecated model or thinking style. Hotaru tells the user
 * itself, once and with the successor (see `deprecationNotice`), so these raw lines are
 * not printed on every request.
 */
const SDK_DEPRECATION_NOTICE = /^(The model '[^']+' is deprecated and will reach end-of-life|Using Claude with \S+ and 'thinking\.type=enabled' is deprecated)/

/** Runs `call` with the SDK's deprecation notices filtered out of `console.warn`. */
function withoutSdkNotices<T>(call: () => T): T {
  // The SDK warns synchronously inside `create`, before anything is sent: the filter is in place for exactly that call.
  const warn = console.warn
  console.warn = (...data: unknown[]) => {
    if (typeof data[0] === 'string' && SDK_DEPRECATION_NOTICE.test(data[0])) return
    warn(...data)
  }
  try {
    return call()
  } finally {
    console.warn = warn
  }
}

/** Messages whose `create` keeps the SDK's deprecation notices off the console; everything else is the SDK's. */
function quietMessages(client: BaseAnthropic): Messages {
  const messages = new Messages(client)
  const create = messages.create.bind(messages)
  // One wrapper serves every overload of `create`: arguments and result pass through unchanged.
  messages.create = ((...args: Parameters<typeof create>) => withoutSdkNotices(() => create(...args))) as Messages['create']
  return messages
}

/**
 * The Anthropic SDK's client with the one API we call (Messages). The SDK's default client
 * builds every resource it has (batches, files, models, skills, the beta and admin APIs…) and
 * its module imports all of them: several hundred kB that each start parses and runs for
 * nothing. Transport, retries, errors and streaming are the SDK's own (`BaseAnthropic`).
 */
export class AnthropicClient extends BaseAnthropic {
  messages: Messages = quietMessages(this)
}
