import { background } from '../../lib/background'
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react'
import { useStore } from 'zustand'
import type { SearchFileResult, SearchMatch } from '@shared/schema/search'
import { useProject, useProjectStore } from '../../stores/project'
import { projectClient } from '../../stores/project-client'
import { documentsFor } from '../editor'
import { parseGlobs, searchSummary, stepResult } from './search-model'
import { Icon } from '../../components/Icon'

function MatchText({ match }: { match: SearchMatch }) {
  // Leading indentation is noise in a result list; ranges shift with it.
  const indent = match.text.length - match.text.trimStart().length
  const text = match.text.slice(indent)
  const parts: { text: string; hit: boolean }[] = []
  let at = 0
  for (const [start, end] of match.ranges) {
    const s = Math.max(0, start - indent)
    const e = Math.max(s, end - indent)
    if (s > at) parts.push({ text: text.slice(at, s), hit: false })
    parts.push({ text: text.slice(s, e), hit: true })
    at = e
  }
  parts.push({ text: text.slice(at), hit: false })
  return (
    <span className="search-line-text">
      {parts.map((p, i) => (p.hit ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}
    </span>
  )
}

function FileGroup({ file, onOpen }: { file: SearchFileResult; onOpen(match: SearchMatch): void }) {
  const [open, setOpen] = useState(true)
  const slash = file.path.lastIndexOf('/')
  return (
    <li className="search-file" role="treeitem" aria-expanded={open} aria-label={`${file.path}, ${file.matches.length} results`} aria-selected={false}>
      <button type="button" className="search-file-head" onClick={() => setOpen(!open)}>
        <Icon name={open ? 'chevron-down' : 'chevron-right'} />
        <span className="search-file-name">{file.path.slice(slash + 1)}</span>
        <span className="muted search-file-dir">{slash > 0 ? file.path.slice(0, slash) : ''}</span>
        <span className="badge-count">{file.matches.length}</span>
      </button>
      {open && (
        <ul role="group">
          {file.matches.map((m, i) => (
            <li key={`${m.line}:${i}`} role="treeitem" aria-selected={false}>
              <button type="button" className="search-line" onClick={() => onOpen(m)} title={`${file.path}:${m.line}`}>
                <span className="muted search-line-no">{m.line}</span>
                <MatchText match={m} />
              </button>
            </li>
          ))}
        </ul>
      )}
    </li>
  )
}

function Toggle({ label, title, on, set }: { label: string; title: string; on: boolean; set(on: boolean): void }) {
  return (
    <button type="button" className={`icon search-toggle${on ? ' on' : ''}`} aria-pressed={on} aria-label={title} title={title} onClick={() => set(!on)}>
      {label}
    </button>
  )
}

/** How long typing pauses before the search runs. */
const SEARCH_DELAY_MS = 250

/** Find in files (Mod+Shift+F): ripgrep in core, results streamed in grouped by file; a click opens at the line. */
export function SearchPanel() {
  const store = useProjectStore()
  const projectId = useProject((s) => s.projectId)
  const bridge = useProject((s) => s.bridge)
  const search = projectClient(bridge, projectId).search
  const run = useStore(search.store, (s) => s.run)
  const [query, setQuery] = useState(run?.query.query ?? '')
  const [regex, setRegex] = useState(run?.query.regex ?? false)
  const [caseSensitive, setCaseSensitive] = useState(run?.query.caseSensitive ?? false)
  const [wholeWord, setWholeWord] = useState(run?.query.wholeWord ?? false)
  const [include, setInclude] = useState((run?.query.include ?? []).join(', '))
  const [exclude, setExclude] = useState((run?.query.exclude ?? []).join(', '))
  const input = useRef<HTMLInputElement>(null)
  const results = useRef<HTMLUListElement>(null)
  const typed = useRef(false)
  useEffect(() => input.current?.select(), [])

  const submit = (e?: FormEvent): void => {
    e?.preventDefault()
    typed.current = false
    if (!query) {
      search.clear()
      return
    }
    const inc = parseGlobs(include)
    const exc = parseGlobs(exclude)
    background('search.start', search.start({ query, regex, caseSensitive, wholeWord, ...(inc.length ? { include: inc } : {}), ...(exc.length ? { exclude: exc } : {}) }))
  }
  // Search as you type: the run starts once typing pauses; Enter starts it at once.
  const latest = useRef(submit)
  useEffect(() => {
    latest.current = submit
  })
  useEffect(() => {
    if (!typed.current) return
    // A search already started with Enter clears `typed`, so the timer has nothing left to do.
    const timer = setTimeout(() => typed.current && latest.current(), SEARCH_DELAY_MS)
    return () => clearTimeout(timer)
  }, [query, regex, caseSensitive, wholeWord, include, exclude])
  const edit =
    <T,>(set: (value: T) => void) =>
    (value: T): void => {
      typed.current = true
      set(value)
    }

  // ↓ from the search box into the results, ↑/↓ between result rows, ↑ from the first back to the box.
  const moveInResults = (e: KeyboardEvent): void => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return
    const rows = [...(results.current?.querySelectorAll<HTMLButtonElement>('button.search-file-head, button.search-line') ?? [])]
    if (rows.length === 0) return
    e.preventDefault()
    const next = stepResult(rows.length, rows.indexOf(document.activeElement as HTMLButtonElement), e.key)
    if (next === -1) input.current?.focus()
    else rows[next]?.focus()
  }
  const onKeyDown = (e: KeyboardEvent): void => {
    if (e.key !== 'Escape') return
    e.preventDefault()
    if (run?.status === 'running') search.cancel()
    else store.getState().setSidebarMode('files')
  }
  const openMatch = (path: string, match: SearchMatch): void => {
    const [start, end] = match.ranges[0] ?? [0, 0]
    documentsFor(store).openAt(path, { line: match.line, column: start + 1, endColumn: end + 1 })
  }

  return (
    <section className="search-panel" aria-label="Find in files" data-testid="search-panel" onKeyDown={onKeyDown}>
      <form className="search-form" onSubmit={submit}>
        <div className="search-row">
          <input ref={input} autoFocus className="search-input" aria-label="Search" placeholder="Search" value={query} onChange={(e) => edit(setQuery)(e.target.value)} onKeyDown={moveInResults} spellCheck={false} />
          <Toggle label="Aa" title="Match case" on={caseSensitive} set={edit(setCaseSensitive)} />
          <Toggle label="ab" title="Match whole word" on={wholeWord} set={edit(setWholeWord)} />
          <Toggle label=".*" title="Use regular expression" on={regex} set={edit(setRegex)} />
        </div>
        <input className="search-input" aria-label="Files to include" placeholder="files to include (e.g. src/**, *.ts)" value={include} onChange={(e) => edit(setInclude)(e.target.value)} spellCheck={false} />
        <input className="search-input" aria-label="Files to exclude" placeholder="files to exclude" value={exclude} onChange={(e) => edit(setExclude)(e.target.value)} spellCheck={false} />
        <button type="submit" hidden>
          Search
        </button>
      </form>
      {run && (
        <div className="search-status" role="status">
          <span className={run.status === 'error' ? 'error' : 'muted'}>{searchSummary(run)}</span>
          {run.status === 'running' && (
            <button type="button" className="small" onClick={() => search.cancel()}>
              Cancel
            </button>
          )}
        </div>
      )}
      {run && run.files.length > 0 && (
        <ul ref={results} className="search-results" role="tree" aria-label="Search results" onKeyDown={moveInResults}>
          {run.files.map((file) => (
            <FileGroup key={file.path} file={file} onOpen={(m) => openMatch(file.path, m)} />
          ))}
        </ul>
      )}
    </section>
  )
}
