import { num, record, str, type ToolPart } from './describe'

export interface WebSearchResultView {
  title: string
  url: string
  domain: string
  pageAge?: string
}

export interface WebSearchSourceView {
  url: string
  domain: string
  /** The result's number in the list, when the source is one of the results. */
  number?: number
}

export interface WebSearchView {
  query: string
  allowedDomains: string[]
  blockedDomains: string[]
  results: WebSearchResultView[]
  failures: string[]
  answer: Array<{ text: string; sources: WebSearchSourceView[] }>
  filtered: number
}

/** Only web links are shown as links: a result is provider data and could carry any scheme. */
function webUrl(value: unknown): URL | undefined {
  const text = str(value)
  if (!text) return undefined
  try {
    const url = new URL(text)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined
  } catch {
    // Not a URL at all: nothing to link to.
    return undefined
  }
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [])

/** A websearch call's metadata (or, while it runs, its input) as the card shows it. */
export function webSearchView(part: ToolPart): WebSearchView {
  const meta = record(part.state.metadata)
  const input = record(part.state.input)
  const results: WebSearchResultView[] = []
  const numbers = new Map<string, number>()
  const failures: string[] = []
  for (const search of Array.isArray(meta.searches) ? meta.searches.map(record) : []) {
    const error = str(search.error)
    if (error) failures.push(`A search${str(search.query) ? ` for "${str(search.query)}"` : ''} failed: ${error.replace(/_/g, ' ')}`)
    for (const result of Array.isArray(search.results) ? search.results.map(record) : []) {
      const url = webUrl(result.url)
      if (!url || numbers.has(url.href)) continue
      numbers.set(url.href, results.length + 1)
      const pageAge = str(result.pageAge)
      results.push({ title: str(result.title) || url.href, url: url.href, domain: url.hostname.replace(/^www\./, ''), ...(pageAge ? { pageAge } : {}) })
    }
  }
  const answer = (Array.isArray(meta.answer) ? meta.answer.map(record) : []).map((span) => {
    const sources: WebSearchSourceView[] = []
    for (const citation of Array.isArray(span.citations) ? span.citations.map(record) : []) {
      const url = webUrl(citation.url)
      if (!url || sources.some((s) => s.url === url.href)) continue
      const number = numbers.get(url.href)
      sources.push({ url: url.href, domain: url.hostname.replace(/^www\./, ''), ...(number ? { number } : {}) })
    }
    return { text: str(span.text) ?? '', sources }
  })
  return {
    query: str(meta.query) ?? str(input.query) ?? '',
    allowedDomains: strings(meta.allowedDomains ?? input.allowed_domains),
    blockedDomains: strings(meta.blockedDomains ?? input.blocked_domains),
    results,
    failures,
    answer: answer.filter((a) => a.text.length > 0),
    filtered: num(meta.filtered) ?? 0,
  }
}
