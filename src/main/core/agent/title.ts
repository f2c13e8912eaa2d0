import type { ProviderRegistry, ProviderSettings } from '../provider'
import titlePrompt from './prompts/title.txt?raw'

export function cleanTitle(raw: string): string | undefined {
  const line = raw
    .replace(/<think>[\s\S]*?<\/think>/g, '')
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.length > 0)
  if (!line) return undefined
  const unquoted = line.replace(/^["'`*#\s]+|["'`*.\s]+$/g, '')
  if (!unquoted) return undefined
  return unquoted.length > 60 ? `${unquoted.slice(0, 57).trimEnd()}…` : unquoted
}

/** A short title from the user's first message; undefined when the model gave nothing usable. */
export async function generateTitle(
  providers: ProviderRegistry,
  model: string,
  firstMessage: string,
  signal?: AbortSignal,
  settings?: ProviderSettings,
): Promise<string | undefined> {
  const completion = await providers.complete({
    model,
    settings,
    system: titlePrompt,
    messages: [{ role: 'user', content: [{ type: 'text', text: firstMessage.slice(0, 4000) }] }],
    maxTokens: 64,
    promptCache: false,
    // A title is cheap work: no thinking, even on models that think unless told not to.
    reasoning: { effort: 'off' },
    signal,
  })
  return cleanTitle(completion.text)
}

/** Until the model names it: the first line of the user's message, shortened. */
export function titleFromMessage(text: string): string {
  return cleanTitle(text) ?? 'New session'
}
