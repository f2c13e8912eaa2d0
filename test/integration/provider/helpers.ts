import type { HotaruError } from '@shared/errors'
import { type ProviderRegistryOptions, ProviderRegistry } from '../../../src/main/core/provider'
import type { ProviderSettings, StreamEvent, ToolCallEndEvent, ToolDefinition } from '../../../src/main/core/provider'
import type { FakeLlm } from '../../fixtures/fake-llm'

export const TEST_KEY = 'sk-test-key'

/** A registry pointed at the fake server for both SDK families, with tiny retry delays. */
/** Provider settings pointing every test provider at the fake server. */
export function settingsFor(server: FakeLlm): ProviderSettings {
  return {
    providers: {
      anthropic: { apiKey: TEST_KEY, baseURL: server.anthropicBaseURL },
      openai: { apiKey: TEST_KEY, baseURL: server.openaiBaseURL },
      deepseek: { apiKey: TEST_KEY, baseURL: server.openaiBaseURL },
    },
  }
}

export function registryFor(server: FakeLlm, options: ProviderRegistryOptions = {}): ProviderRegistry {
  return new ProviderRegistry({
    env: {},
    ...options,
    settings: options.settings ?? settingsFor(server),
    retry: { delayScale: 0.001, ...options.retry },
  })
}

export async function collect(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = []
  for await (const event of stream) events.push(event)
  return events
}

/** Collects until the stream throws; returns the events seen and the error. */
export async function collectUntilError(
  stream: AsyncIterable<StreamEvent>,
): Promise<{ events: StreamEvent[]; error: HotaruError | undefined }> {
  const events: StreamEvent[] = []
  try {
    for await (const event of stream) events.push(event)
  } catch (error) {
    return { events, error: error as HotaruError }
  }
  return { events, error: undefined }
}

export interface Transcript {
  text: string
  reasoning: string
  signatures: string[]
  toolCalls: ToolCallEndEvent[]
  resets: number
  retries: number
}

/** What a consumer following the stream contract would store (attempt-reset discards). */
export function transcriptOf(events: StreamEvent[]): Transcript {
  const fresh = (): Omit<Transcript, 'resets' | 'retries'> => ({ text: '', reasoning: '', signatures: [], toolCalls: [] })
  let current = fresh()
  let resets = 0
  let retries = 0
  for (const event of events) {
    if (event.type === 'attempt-reset') {
      current = fresh()
      resets++
    } else if (event.type === 'retry') retries++
    else if (event.type === 'text-delta') current.text += event.text
    else if (event.type === 'reasoning-delta') {
      current.reasoning += event.text
      if (event.signature) current.signatures.push(event.signature)
    } else if (event.type === 'tool-call-end') current.toolCalls.push(event)
  }
  return { ...current, resets, retries }
}

/**
 * Three tool turns streamed one after another through one registry, each read to its end as the
 * agent loop reads it; returns the connection each request came on (see `RecordedRequest.connection`).
 */
export async function connectionsOfConsecutiveStreams(server: FakeLlm, model: string, tools: ToolDefinition[]): Promise<number[]> {
  const registry = registryFor(server)
  for (const text of ['one', 'two', 'three']) {
    server.enqueue({ text, toolCalls: [{ name: tools[0]?.name ?? 'read', args: { path: 'a.txt' } }] })
    const events = await collect(registry.stream({ model, messages: [{ role: 'user', content: [{ type: 'text', text }] }], tools }))
    if (transcriptOf(events).text !== text) throw new Error(`turn "${text}" streamed ${JSON.stringify(events)}`)
  }
  return server.requests.map((r) => r.connection)
}
