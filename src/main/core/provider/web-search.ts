import { AssistantAssembler } from './assemble'
import type { ProviderSettings } from './settings'
import type { AssistantMessage, ChatRequest, ModelMessage, StreamEvent, TextPart, Usage } from './types'

/** One search the provider ran, with what it found or why it failed. */
export interface WebSearchRun {
  query: string
  results: WebSearchHit[]
  /** The provider's error code when the search failed (`max_uses_exceeded`, `too_many_requests`…). */
  error?: string
}

export interface WebSearchHit {
  title: string
  url: string
  /** How old the page is, as the provider words it ("3 hours ago"). */
  pageAge?: string
}

export interface WebSearchRequest {
  model: string
  settings?: ProviderSettings
  query: string
  allowedDomains?: string[]
  blockedDomains?: string[]
  /** Searches the model may run (default 5). */
  maxUses?: number
  signal?: AbortSignal
  /** The searches so far, each time one completes. */
  onSearches?(runs: WebSearchRun[]): void
}

export interface WebSearchOutcome {
  searches: WebSearchRun[]
  /** The searching model's answer: text spans, cited ones with their sources. */
  answer: TextPart[]
  usage: Usage
  /** How many times a paused turn (`pause_turn`) was continued. */
  continued: number
  /** Still paused after the last continuation allowed. */
  paused: boolean
}

/** The streaming part of the provider registry a search needs. */
export interface SearchStreamer {
  stream(request: ChatRequest): AsyncIterable<StreamEvent>
}

export const WEB_SEARCH_DEFAULT_MAX_USES = 5
/** A long search is paused by the provider (`pause_turn`); it is continued at most this many times. */
export const WEB_SEARCH_MAX_CONTINUATIONS = 3

const SYSTEM =
  'You search the web for a coding agent. Run the web_search tool for the query (more than once if the first ' +
  'results do not answer it), then answer in a few sentences with the facts the results give, citing them. ' +
  'Do not speculate beyond the results.'

type Block = Record<string, unknown>

const isObject = (v: unknown): v is Block => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Searches in server tool blocks: Anthropic `server_tool_use` + `web_search_tool_result`, Responses `web_search_call`. */
export function searchesFromBlocks(blocks: readonly Block[]): WebSearchRun[] {
  const runs: WebSearchRun[] = []
  const byId = new Map<string, WebSearchRun>()
  for (const block of blocks) {
    if (block.type === 'server_tool_use' && block.name === 'web_search') {
      const input = isObject(block.input) ? block.input : {}
      const run: WebSearchRun = { query: typeof input.query === 'string' ? input.query : '', results: [] }
      runs.push(run)
      if (typeof block.id === 'string') byId.set(block.id, run)
    } else if (block.type === 'web_search_tool_result') {
      const run = byId.get(String(block.tool_use_id)) ?? { query: '', results: [] }
      if (!runs.includes(run)) runs.push(run)
      if (Array.isArray(block.content)) run.results.push(...block.content.filter(isObject).flatMap(anthropicHit))
      else if (isObject(block.content)) run.error = String(block.content.error_code ?? 'unknown_error')
    } else if (block.type === 'web_search_call') {
      // Opening or searching within a page is part of reading, not a search of its own.
      const action = isObject(block.action) ? block.action : {}
      if (action.type === undefined || action.type === 'search') runs.push(responsesRun(block))
    }
  }
  return runs
}

function anthropicHit(result: Block): WebSearchHit[] {
  if (typeof result.url !== 'string') return []
  return [
    {
      url: result.url,
      title: typeof result.title === 'string' && result.title ? result.title : result.url,
      ...(typeof result.page_age === 'string' ? { pageAge: result.page_age } : {}),
    },
  ]
}

/** A Responses `web_search_call` item: its action names the query and, when included, the sources. */
function responsesRun(item: Block): WebSearchRun {
  const action = isObject(item.action) ? item.action : {}
  const query = typeof action.query === 'string' ? action.query : Array.isArray(action.queries) ? action.queries.map(String).join('; ') : ''
  const sources = Array.isArray(action.sources) ? action.sources.filter(isObject) : []
  const results = sources.flatMap((s) => (typeof s.url === 'string' ? [{ url: s.url, title: typeof s.title === 'string' ? s.title : s.url }] : []))
  return { query, results, ...(item.status === 'failed' ? { error: 'failed' } : {}) }
}

/** A paused answer is sent back as the last message; the API rejects one that ends in whitespace. */
function continuationOf(content: AssistantMessage['content']): AssistantMessage {
  const parts = [...content]
  const last = parts[parts.length - 1]
  if (last?.type === 'text') parts[parts.length - 1] = { ...last, text: last.text.trimEnd() }
  return { role: 'assistant', content: parts }
}

/**
 * Runs one web search as its own request to the session's model with the provider's
 * server search tool, continuing the turn while the provider pauses it. The blocks of a
 * paused turn go back exactly as received.
 */
export async function runWebSearch(providers: SearchStreamer, providerId: string, request: WebSearchRequest): Promise<WebSearchOutcome> {
  const prompt: ModelMessage = { role: 'user', content: [{ type: 'text', text: `Search the web for: ${request.query}` }] }
  const usage: Usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }
  let content: AssistantMessage['content'] = []
  let continued = 0
  for (;;) {
    const assembler = new AssistantAssembler(providerId)
    const messages = content.length > 0 ? [prompt, continuationOf(content)] : [prompt]
    const stream = providers.stream({
      model: request.model,
      settings: request.settings,
      system: SYSTEM,
      messages,
      serverTools: [
        {
          type: 'web_search',
          maxUses: request.maxUses ?? WEB_SEARCH_DEFAULT_MAX_USES,
          ...(request.allowedDomains?.length ? { allowedDomains: request.allowedDomains } : {}),
          ...(request.blockedDomains?.length ? { blockedDomains: request.blockedDomains } : {}),
        },
      ],
      signal: request.signal,
    })
    for await (const event of stream) {
      assembler.handle(event)
      // A search is complete once its result arrives (Anthropic) or its call item is done (Responses).
      const type = event.type === 'provider-block' ? event.block.type : undefined
      if (type === 'web_search_tool_result' || type === 'web_search_call') {
        request.onSearches?.(searchesFromBlocks(blockParts([...content, ...assembler.content()])))
      }
    }
    content = [...content, ...assembler.content()]
    usage.input += assembler.usage.input
    usage.output += assembler.usage.output
    usage.cacheRead += assembler.usage.cacheRead
    usage.cacheWrite += assembler.usage.cacheWrite
    const paused = assembler.finish === 'pause'
    if (!paused || continued >= WEB_SEARCH_MAX_CONTINUATIONS) {
      return {
        searches: searchesFromBlocks(blockParts(content)),
        answer: content.filter((p): p is TextPart => p.type === 'text'),
        usage,
        continued,
        paused,
      }
    }
    continued++
  }
}

function blockParts(content: AssistantMessage['content']): Block[] {
  return content.flatMap((p) => (p.type === 'provider-block' ? [p.block] : []))
}
