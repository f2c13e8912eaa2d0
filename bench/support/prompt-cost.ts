/**
 * Estimated dollars of a sequence of Anthropic Messages requests, with Anthropic's prompt caching
 * simulated the way the API documents it: the prompt is the sequence tools → system → messages; a
 * `cache_control` breakpoint writes the prefix up to it; a later request reads the longest prefix,
 * ending at a block boundary at or before one of its breakpoints, that an earlier request of the same
 * model wrote. Tokens are estimated at 4 characters each (both agents are measured the same way).
 *
 * `reuse`: of the prefix a request shares with an earlier request of the same model (what caching
 * could have saved), the share it actually read from the cache. 1 means no cacheable prefix was
 * written again.
 */
import { createHash } from 'node:crypto'

/** $ per million tokens: input, output (cache writes 1.25× input for 5 minutes, 2× for 1 hour; reads 0.1×). */
const PRICES: Array<{ match: RegExp; input: number; output: number }> = [
  { match: /haiku/, input: 1, output: 5 },
  { match: /opus-4-[5-9]|opus-[5-9]/, input: 5, output: 25 },
  { match: /opus/, input: 15, output: 75 },
  { match: /./, input: 3, output: 15 },
]

interface Block {
  tokens: number
  breakpoint: '5m' | '1h' | undefined
  /** Hash of the whole prompt up to and including this block. */
  prefix: string
}

export interface PromptCost {
  requests: number
  inputTokens: number
  cacheReadTokens: number
  cacheWriteTokens: number
  outputTokens: number
  dollars: number
  /** Read from the cache / shared with an earlier request of the same model (1: nothing rewritten). */
  reuse: number
}

function tokensOf(value: unknown): number {
  return Math.ceil(JSON.stringify(value ?? '').length / 4)
}

function breakpointOf(value: unknown): Block['breakpoint'] {
  if (typeof value !== 'object' || value === null) return undefined
  const control = (value as { cache_control?: { type?: string; ttl?: string } }).cache_control
  if (control?.type !== 'ephemeral') return undefined
  return control.ttl === '1h' ? '1h' : '5m'
}

/** A content field as blocks: a string is one text block. */
function contentBlocks(content: unknown): unknown[] {
  if (Array.isArray(content)) return content
  return [{ type: 'text', text: content }]
}

/** The request as the cache sees it: tools, then system, then each message's content blocks. */
function blocksOf(body: Record<string, unknown>): Block[] {
  const items: Array<{ key: unknown; control: unknown }> = []
  for (const tool of (body.tools as unknown[] | undefined) ?? []) items.push({ key: tool, control: tool })
  if (body.system !== undefined) for (const block of contentBlocks(body.system)) items.push({ key: block, control: block })
  for (const message of (body.messages as Array<{ role: string; content: unknown }> | undefined) ?? []) {
    for (const block of contentBlocks(message.content)) items.push({ key: [message.role, block], control: block })
  }
  const hash = createHash('sha256').update(String(body.model))
  return items.map(({ key, control }) => {
    // Where the breakpoint sits is not part of the content: a moved breakpoint does not change the prefix.
    const { cache_control: _ignored, ...rest } = (typeof control === 'object' && control !== null ? control : {}) as Record<string, unknown>
    hash.update(JSON.stringify(Array.isArray(key) ? [key[0], rest] : rest))
    return { tokens: tokensOf(rest), breakpoint: breakpointOf(control), prefix: hash.copy().digest('hex') }
  })
}

/** The output of request i: the assistant message the next request of the same conversation appended. */
function outputTokens(bodies: Array<Record<string, unknown>>, index: number): number {
  const messages = (bodies[index]?.messages as unknown[] | undefined) ?? []
  const next = bodies.slice(index + 1).find((b) => b.model === bodies[index]?.model && ((b.messages as unknown[] | undefined)?.length ?? 0) > messages.length)
  const added = ((next?.messages as Array<{ role: string; content: unknown }> | undefined) ?? []).slice(messages.length).find((m) => m.role === 'assistant')
  // The last answer of a conversation: a short final text.
  return added ? tokensOf(added.content) : 20
}

export function promptCost(bodies: Array<Record<string, unknown>>): PromptCost {
  const written = new Set<string>()
  const seen = new Set<string>()
  const total: PromptCost = { requests: bodies.length, inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0, dollars: 0, reuse: 1 }
  let shared = 0
  bodies.forEach((body, index) => {
    const price = PRICES.find((p) => p.match.test(String(body.model))) ?? { input: 3, output: 15 }
    const blocks = blocksOf(body)
    const lastBreakpoint = blocks.findLastIndex((b) => b.breakpoint !== undefined)
    // The longest prefix written earlier, ending at or before the last breakpoint.
    let read = -1
    for (let i = Math.min(lastBreakpoint, blocks.length - 1); i >= 0; i--) {
      if (written.has(blocks[i]?.prefix ?? '')) {
        read = i
        break
      }
    }
    let sharedUpTo = -1
    for (let i = blocks.length - 1; i >= 0; i--) {
      if (seen.has(blocks[i]?.prefix ?? '')) {
        sharedUpTo = i
        break
      }
    }
    let readTokens = 0
    let writeTokens = 0
    let writeDollars = 0
    let inputTokens = 0
    blocks.forEach((block, i) => {
      if (i <= read) readTokens += block.tokens
      else if (i <= lastBreakpoint) {
        writeTokens += block.tokens
        // A block is written at the price of the first breakpoint at or after it.
        const ttl = blocks.slice(i).find((b) => b.breakpoint)?.breakpoint
        writeDollars += block.tokens * price.input * (ttl === '1h' ? 2 : 1.25)
      } else inputTokens += block.tokens
      seen.add(block.prefix)
    })
    for (const block of blocks.slice(0, lastBreakpoint + 1)) if (block.breakpoint) written.add(block.prefix)
    const sharedTokens = blocks.slice(0, sharedUpTo + 1).reduce((sum, b) => sum + b.tokens, 0)
    shared += sharedTokens
    const output = outputTokens(bodies, index)
    total.inputTokens += inputTokens
    total.cacheReadTokens += readTokens
    total.cacheWriteTokens += writeTokens
    total.outputTokens += output
    total.dollars += (inputTokens * price.input + readTokens * price.input * 0.1 + writeDollars + output * price.output) / 1_000_000
  })
  total.reuse = shared > 0 ? Math.round((total.cacheReadTokens / shared) * 1000) / 1000 : 1
  total.dollars = Math.round(total.dollars * 10_000) / 10_000
  return total
}
