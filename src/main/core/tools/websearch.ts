import { z } from 'zod'
import { Permission } from '../permission/names'
import type { TextPart, WebSearchOutcome, WebSearchRun } from '../provider'
import { ToolError } from './errors'
import { defineTool, type ToolContext } from './tool'
import description from './websearch.txt?raw'

const parameters = z.object({
  query: z.string().min(2).describe('What to search for'),
  allowed_domains: z.array(z.string()).optional().describe('Only include results from these domains'),
  blocked_domains: z.array(z.string()).optional().describe('Never include results from these domains'),
})

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/

/** `https://Docs.Python.org/3/` → `docs.python.org`; what is not a domain is an error the model can fix. */
export function normalizeDomain(raw: string): string {
  const trimmed = raw.trim().toLowerCase()
  const host = trimmed.replace(/^[a-z]+:\/\//, '').replace(/[/?#].*$/, '').replace(/:\d+$/, '').replace(/^\*\./, '').replace(/\.$/, '')
  if (!DOMAIN.test(host)) throw new ToolError(`"${raw}" is not a domain. Give bare domains such as "docs.python.org".`)
  return host
}

/** A host and the domains above it, down to two labels: `a.b.example.com` → itself, `b.example.com`, `example.com`. */
export function hostAndParents(host: string): string[] {
  const labels = host.split('.')
  const out: string[] = []
  for (let i = 0; i <= labels.length - 2; i++) out.push(labels.slice(i).join('.'))
  return out
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase()
  } catch {
    // A result without a parsable URL has no host a rule could name.
    return undefined
  }
}

/** Whether the permission rules deny results from `url`'s host or a domain above it. */
async function deniedUrl(url: string, ctx: ToolContext): Promise<boolean> {
  const host = hostOf(url)
  if (!host || !ctx.check) return false
  const action = await ctx.check({ permission: Permission.WebSearch, patterns: hostAndParents(host), always: [], title: host })
  return action === 'deny'
}

/**
 * Domains the user's rules deny outright (plain `example.com` patterns that a later rule
 * does not lift): sent to the provider as blocked domains so no search reaches them.
 * Wildcard patterns cannot be said to the provider; their results are dropped afterwards.
 */
async function configBlockedDomains(ctx: ToolContext): Promise<string[]> {
  const patterns = ctx.denyPatterns?.(Permission.WebSearch) ?? []
  const domains = [...new Set(patterns.filter((p) => DOMAIN.test(p)))]
  const denied: string[] = []
  for (const domain of domains) if (await deniedUrl(`https://${domain}/`, ctx)) denied.push(domain)
  return denied
}

export interface WebSearchCitationView {
  url: string
  title?: string
  citedText?: string
}

/** What the tool card shows. */
export interface WebSearchMetadata extends Record<string, unknown> {
  query: string
  allowedDomains?: string[]
  blockedDomains?: string[]
  searches: WebSearchRun[]
  answer: Array<{ text: string; citations?: WebSearchCitationView[] }>
  /** Results left out because a deny rule covers their domain. */
  filtered: number
  usage?: WebSearchOutcome['usage']
}

/**
 * Drops results and citations of denied or blocked domains (a provider without a blocked-domains
 * filter, OpenAI's, gets them here); returns the kept outcome and how many results went.
 */
async function withoutDenied(outcome: WebSearchOutcome, ctx: ToolContext, blocked: readonly string[]): Promise<{ searches: WebSearchRun[]; answer: TextPart[]; filtered: number }> {
  const isBlocked = (url: string): boolean => hostAndParents(hostOf(url) ?? '').some((d) => blocked.includes(d))
  const dropped = async (url: string): Promise<boolean> => isBlocked(url) || (await deniedUrl(url, ctx))
  let filtered = 0
  const searches: WebSearchRun[] = []
  for (const run of outcome.searches) {
    const results = []
    for (const result of run.results) {
      if (await dropped(result.url)) filtered++
      else results.push(result)
    }
    searches.push({ ...run, results })
  }
  const answer: TextPart[] = []
  for (const part of outcome.answer) {
    const citations = []
    for (const citation of part.citations ?? []) if (!(await dropped(citation.url))) citations.push(citation)
    answer.push(citations.length > 0 ? { ...part, citations } : { type: 'text', text: part.text })
  }
  return { searches, answer, filtered }
}

/** The output for the model: numbered results, then the answer with `[n]` after each cited span. */
export function formatSearchOutput(query: string, searches: WebSearchRun[], answer: TextPart[]): string {
  const results = searches.flatMap((s) => s.results)
  const numbers = new Map<string, number>()
  const lines: string[] = []
  for (const result of results) {
    if (numbers.has(result.url)) continue
    numbers.set(result.url, numbers.size + 1)
    lines.push(`[${numbers.size}] ${result.title} — ${result.url}${result.pageAge ? ` (${result.pageAge})` : ''}`)
  }
  const failed = searches.filter((s) => s.error !== undefined)
  const head = `Web search for "${query}": ${searches.length} search${searches.length === 1 ? '' : 'es'}, ${numbers.size} result${numbers.size === 1 ? '' : 's'}.`
  const parts = [head]
  if (failed.length > 0) parts.push(failed.map((s) => `A search${s.query ? ` for "${s.query}"` : ''} failed: ${s.error}.`).join('\n'))
  if (lines.length > 0) parts.push(`Results:\n${lines.join('\n')}`)
  const text = answer
    .map((part) => {
      const marks = [...new Set((part.citations ?? []).map((c) => numbers.get(c.url) ?? c.url))]
      return marks.length > 0 ? `${part.text} ${marks.map((m) => `[${m}]`).join('')}` : part.text
    })
    .join('')
    .trim()
  if (text) parts.push(`Summary of the results:\n${text}`)
  parts.push('Cite the results you use as markdown links to their URLs.')
  return parts.join('\n\n')
}

export const websearchTool = defineTool({
  id: 'websearch',
  mutatesFiles: false,
  description,
  parameters,
  async execute(args, ctx) {
    const query = args.query.trim()
    const allowed = [...new Set((args.allowed_domains ?? []).map(normalizeDomain))]
    const blocked = [...new Set((args.blocked_domains ?? []).map(normalizeDomain))]
    if (allowed.length > 0 && blocked.length > 0) throw new ToolError('Give allowed_domains or blocked_domains, not both.')
    const where = allowed.length > 0 ? ` on ${allowed.join(', ')}` : ''
    // The pattern is what the search may reach: its domains, or `*` for the whole web.
    const patterns = allowed.length > 0 ? allowed : ['*']
    await ctx.ask({
      permission: Permission.WebSearch,
      patterns,
      always: patterns,
      title: `Search the web for "${query}"${where}`,
      metadata: { query, ...(allowed.length ? { allowedDomains: allowed } : {}), ...(blocked.length ? { blockedDomains: blocked } : {}) },
    })
    if (!ctx.webSearch) {
      throw new ToolError('Web search is not available with this model: its provider has no server-side search. Use webfetch on a known URL instead.')
    }
    const blockedDomains = allowed.length > 0 ? [] : [...new Set([...blocked, ...(await configBlockedDomains(ctx))])]
    const base = { query, ...(allowed.length ? { allowedDomains: allowed } : {}), ...(blockedDomains.length ? { blockedDomains } : {}) }
    ctx.metadata({ title: query, metadata: { ...base, searches: [] } })
    const outcome = await ctx.webSearch({
      query,
      ...(allowed.length ? { allowedDomains: allowed } : {}),
      ...(blockedDomains.length ? { blockedDomains } : {}),
      signal: ctx.signal,
      onSearches: (runs) => ctx.metadata({ metadata: { searches: runs } }),
    })
    const { searches, answer, filtered } = await withoutDenied(outcome, ctx, blockedDomains)
    const results = searches.reduce((n, s) => n + s.results.length, 0)
    const errors = searches.flatMap((s) => (s.error ? [s.error] : []))
    if (results === 0 && errors.length > 0) {
      throw new ToolError(`The web search failed (${[...new Set(errors)].join(', ')}). Try again later, or rephrase the query.`)
    }
    const metadata: WebSearchMetadata = {
      ...base,
      searches,
      answer: answer.map((p) => ({
        text: p.text,
        ...(p.citations?.length ? { citations: p.citations.map((c) => ({ url: c.url, ...(c.title ? { title: c.title } : {}), ...(c.citedText ? { citedText: c.citedText } : {}) })) } : {}),
      })),
      filtered,
      usage: outcome.usage,
    }
    return { title: query, output: formatSearchOutput(query, searches, answer), metadata }
  },
})
