import { webSearchView, type WebSearchView } from './websearch-view'
import type { ToolPart } from './describe'

/** A link that opens in the system browser (the shell turns new windows into browser tabs). */
function External({ href, children, className }: { href: string; children: React.ReactNode; className?: string }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={className} title={href}>
      {children}
    </a>
  )
}

function Answer({ view }: { view: WebSearchView }) {
  if (view.answer.length === 0) return null
  return (
    <p className="websearch-answer" data-testid="websearch-answer">
      {view.answer.map((span, i) => (
        <span key={i}>
          {span.text}
          {span.sources.map((s) => (
            <sup key={s.url}>
              <External href={s.url} className="websearch-cite">
                [{s.number ?? s.domain}]
              </External>
            </sup>
          ))}
        </span>
      ))}
    </p>
  )
}

/** The web search card: the query, each result (title, domain, age) as a browser link, and the cited answer. */
export function WebSearchResults({ part }: { part: ToolPart }) {
  const view = webSearchView(part)
  const running = part.state.status === 'running' || part.state.status === 'pending'
  return (
    <div className="websearch" data-testid="websearch-card">
      <div className="websearch-query mono">
        🔎 {view.query}
        {view.allowedDomains.length > 0 && <span className="muted"> · only {view.allowedDomains.join(', ')}</span>}
        {view.blockedDomains.length > 0 && <span className="muted"> · not {view.blockedDomains.join(', ')}</span>}
      </div>
      {view.failures.map((f) => (
        <div key={f} className="bad">
          {f}
        </div>
      ))}
      {view.results.length > 0 && (
        <ol className="websearch-results" data-testid="websearch-results">
          {view.results.map((r) => (
            <li key={r.url} data-testid="websearch-result">
              <External href={r.url}>{r.title}</External> <span className="muted websearch-domain">{r.domain}</span>
              {r.pageAge && <span className="muted"> · {r.pageAge}</span>}
            </li>
          ))}
        </ol>
      )}
      {running && view.results.length === 0 && <div className="muted">Searching…</div>}
      {view.filtered > 0 && (
        <div className="muted" data-testid="websearch-filtered">
          {view.filtered} result{view.filtered === 1 ? '' : 's'} from denied domains left out
        </div>
      )}
      <Answer view={view} />
    </div>
  )
}
