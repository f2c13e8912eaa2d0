import type { AssistantMessage, FinishReason, ReasoningPart, StreamEvent, TextPart, Usage } from './types'

type Content = AssistantMessage['content']

/**
 * Builds the neutral assistant message of one streamed request from its events, as the
 * provider sent it: text and reasoning runs, tool calls, and the provider's own blocks in
 * stream order, cited text spans as their own parts. What it builds can be sent back to
 * the same provider as-is (a paused turn is continued that way).
 */
export class AssistantAssembler {
  private parts: Content = []
  private openText: TextPart | undefined
  private openReasoning: ReasoningPart | undefined
  /** The open text part ended with its citations. */
  private citedEnded = false
  /** The open text part is a cited span. */
  private openCited = false
  usage: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }
  finish: FinishReason | undefined
  rawFinish: string | undefined

  constructor(private readonly providerId: string) {}

  handle(event: StreamEvent): void {
    switch (event.type) {
      case 'text-delta':
        this.openReasoning = undefined
        // A cited span is a part of its own: a new part where citing starts or stops, or after citations.
        if (this.citedEnded || this.openCited !== (event.cited === true)) this.openText = undefined
        this.citedEnded = false
        if (!this.openText) {
          this.openText = { type: 'text', text: '' }
          this.openCited = event.cited === true
          this.parts.push(this.openText)
        }
        this.openText.text += event.text
        return
      case 'reasoning-delta':
        this.openText = undefined
        if (!this.openReasoning) {
          this.openReasoning = { type: 'reasoning', text: '', providerId: this.providerId }
          this.parts.push(this.openReasoning)
        }
        this.openReasoning.text += event.text
        if (event.signature) this.openReasoning.signature = event.signature
        if (event.redactedData) this.openReasoning.redactedData = event.redactedData
        if (event.signature || event.redactedData) this.openReasoning = undefined
        return
      case 'citation':
        if (!this.openText) return
        this.openText.citations = [...(this.openText.citations ?? []), event.citation]
        this.citedEnded = true
        return
      case 'provider-block':
        this.closeRuns()
        this.parts.push({ type: 'provider-block', providerId: this.providerId, block: event.block })
        return
      case 'tool-call-end':
        this.closeRuns()
        this.parts.push({ type: 'tool-call', id: event.id, name: event.name, input: 'input' in event ? event.input : {} })
        return
      case 'usage':
        this.usage = event.usage
        return
      case 'finish':
        this.finish = event.reason
        this.rawFinish = event.rawReason
        return
      case 'attempt-reset':
        // The provider retries from scratch: what the failed attempt produced is dropped.
        this.parts = []
        this.closeRuns()
        return
      case 'tool-call-start':
      case 'tool-call-delta':
      case 'retry':
        // Progress only: the call is taken whole at its end; retries are reported by the caller.
        return
    }
  }

  private closeRuns(): void {
    this.openText = undefined
    this.openReasoning = undefined
    this.citedEnded = false
  }

  /** The message so far. */
  content(): Content {
    return this.parts
  }
}
