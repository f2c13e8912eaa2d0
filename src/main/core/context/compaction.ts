import { HotaruError } from '@shared/errors'
import type { MessageWithParts, Usage } from '@shared/schema/session'
import type { AgentInfo } from '../agent/agents'
import type { ChatRequest, Completion, ModelInfo, ProviderSettings } from '../provider'
import { ProviderErrorNames } from '../provider'
import { ContextErrorNames } from './errors'
import { contextBudget } from './overflow'
import compactionPrompt from './prompts/compaction.txt?raw'
import { withoutRefusedTurns } from './stopped-turns'
import { type DegradeLevel, renderSummaryInput } from './summary-input'
import { estimateTokens } from './tokens'

/** The hidden agent that writes summaries; never offered to the user. */
export const COMPACTION_AGENT: AgentInfo = {
  name: 'compaction',
  description: 'Summarizes the older part of a long conversation so the session can go on.',
  mode: 'subagent',
  prompt: compactionPrompt,
  tools: { '*': false },
  hidden: true,
  readOnly: true,
}

/** Upper bound of a summary's length. */
export const SUMMARY_MAX_TOKENS = 8_000

/** Tries with a smaller input when the provider still finds it too long. */
const MAX_SUMMARY_ATTEMPTS = 4

const ASK = 'Write the summary of the conversation above now, in the sections described.'

/** What the compaction needs from the provider layer (the registry, or a stand-in in tests). */
export interface SummaryProvider {
  model(id: string, settings?: ProviderSettings): ModelInfo
  complete(request: ChatRequest): Promise<Completion>
}

export interface SummarizeInput {
  model: string
  /** The project's provider settings, sent with the request. */
  providerSettings?: ProviderSettings
  previousSummary?: string
  covered: readonly MessageWithParts[]
  signal?: AbortSignal
}

export interface SummaryOutcome {
  summary: string
  usage: Usage
  level: DegradeLevel
  omittedMessages: number
}

function cleanSummary(text: string): string {
  return text.replace(/<think>[\s\S]*?<\/think>/g, '').trim()
}

function isContextOverflow(error: unknown): boolean {
  return error instanceof HotaruError && error.name === ProviderErrorNames.ContextOverflow
}

/**
 * Asks the compaction agent for a structured summary of `covered` (folding in the
 * previous summary). The input is sized to the summarizing model's window; when the
 * provider still reports it too long (our estimate was low), it is halved and sent again.
 */
export async function summarize(providers: SummaryProvider, input: SummarizeInput): Promise<SummaryOutcome> {
  const info = providers.model(input.model, input.providerSettings)
  const maxTokens = Math.min(SUMMARY_MAX_TOKENS, info.limit.output)
  let budget = contextBudget(info.limit).usable - estimateTokens(compactionPrompt) - estimateTokens(ASK) - 64
  for (let attempt = 1; attempt <= MAX_SUMMARY_ATTEMPTS; attempt++) {
    // A refused exchange is not sent again, not even to be summarized (see stopped-turns.ts).
    const rendered = renderSummaryInput(input.previousSummary, withoutRefusedTurns(input.covered), budget)
    try {
      const completion = await providers.complete({
        model: input.model,
        system: COMPACTION_AGENT.prompt,
        messages: [{ role: 'user', content: [{ type: 'text', text: `${rendered.text}\n\n${ASK}` }] }],
        maxTokens,
        promptCache: false,
        // Summaries are background work kept cheap: no thinking.
        reasoning: { effort: 'off' },
        signal: input.signal,
        settings: input.providerSettings,
      })
      const summary = cleanSummary(completion.text)
      if (summary.length === 0) {
        throw new HotaruError(ContextErrorNames.CompactionFailed, { message: `${input.model} returned an empty summary` })
      }
      return { summary, usage: completion.usage, level: rendered.level, omittedMessages: rendered.omittedMessages }
    } catch (error) {
      if (!isContextOverflow(error) || attempt === MAX_SUMMARY_ATTEMPTS) throw error
      budget = Math.floor(estimateTokens(rendered.text) / 2)
    }
  }
  throw new HotaruError(ContextErrorNames.CompactionFailed, { message: 'the summary input never fit the model' })
}
