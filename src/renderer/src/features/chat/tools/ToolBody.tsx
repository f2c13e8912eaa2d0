import { background } from '../../../lib/background'
import { useEffect, useRef, useState, type ReactNode } from 'react'
import { ShieldIcon } from '../../../components/ShieldIcon'
import { EDIT_TOOLS, num, record, str, toolHookFailures, type ToolPart } from './describe'
import { HookFailures } from '../messages/parts'
import { SubagentRun } from './SubagentRun'
import { WebSearchResults } from './WebSearchResults'
import { cardText, headTail } from './output-view'
import { errorMessage, unwrap } from '../../../ipc'
import { useChatController } from '../../../stores/chat'
import { Icon } from '../../../components/Icon'

const OUTPUT_LIMIT = 20_000

function Section({ title, children, initiallyOpen }: { title: string; children: ReactNode; initiallyOpen: boolean }) {
  const [open, setOpen] = useState(initiallyOpen)
  return (
    <div className="tool-section">
      <button type="button" className="tool-section-head" aria-expanded={open} onClick={() => setOpen(!open)}>
        <Icon name={open ? 'chevron-down' : 'chevron-right'} /> {title}
      </button>
      {open && children}
    </div>
  )
}

/**
 * Long output shows its head and tail; "Show full output" loads the whole text
 * (from the file core saved when the model got a cut version, else the result).
 */
function Output({ text, testId, follow = false, full }: { text: string; testId?: string; follow?: boolean; full?: () => Promise<string> }) {
  const [whole, setWhole] = useState<string | null>(null)
  const [loading, setLoading] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const ref = useRef<HTMLPreElement>(null)
  const shownText = whole ?? text
  const cut = whole === null && !follow ? headTail(shownText) : null
  const tooLong = whole !== null && whole.length > OUTPUT_LIMIT * 50
  useEffect(() => {
    if (follow && ref.current) ref.current.scrollTop = ref.current.scrollHeight
  }, [shownText, follow])
  const showFull = async (): Promise<void> => {
    setLoading(true)
    try {
      setWhole(full ? await full() : text)
    } catch (e) {
      setError(errorMessage(e))
    } finally {
      setLoading(false)
    }
  }
  return (
    <>
      <pre ref={ref} className="tool-output" data-testid={testId}>
        {cut ? (
          <>
            {cut.head}
            {'\n'}
            <span className="output-gap">
              ⋯ {cut.hidden} line{cut.hidden === 1 ? '' : 's'} not shown ⋯
            </span>
            {'\n'}
            {cut.tail}
          </>
        ) : tooLong ? (
          (whole ?? '').slice(-OUTPUT_LIMIT * 50)
        ) : (
          shownText
        )}
      </pre>
      {(cut || (full && whole === null && !follow)) && (
        <button type="button" className="ghost small" disabled={loading} onClick={() => background('showFull', showFull())}>
          {loading ? 'Loading…' : 'Show full output'}
        </button>
      )}
      {error && (
        <span className="error" role="alert">
          {error}
        </span>
      )}
    </>
  )
}

interface ReportFile {
  path: string
  errors: Array<{ line: number; column: number; message: string; code?: string }>
}

/** The language-server errors an edit caused, as the model was told them. */
function EditDiagnostics({ part }: { part: ToolPart }) {
  const report = record(record(part.state.metadata).diagnostics)
  const files = (Array.isArray(report.files) ? report.files : []) as ReportFile[]
  const others = (Array.isArray(report.others) ? report.others : []) as ReportFile[]
  const notes = (Array.isArray(report.notes) ? report.notes : []).filter((n): n is string => typeof n === 'string')
  if (files.length === 0 && others.length === 0 && notes.length === 0) return null
  const rows = [...files, ...others].flatMap((f) => f.errors.map((e) => ({ path: f.path, ...e })))
  return (
    <div className="tool-diagnostics" data-testid="tool-diagnostics" data-errors={rows.length}>
      {rows.length === 0 && notes.length === 0 && <div className="muted">No errors in {files.map((f) => f.path).join(', ')}</div>}
      {rows.slice(0, 40).map((r, i) => (
        <div key={i} className="bad mono">
          ⨯ {r.path}:{r.line}:{r.column} {r.code ? `${r.code} ` : ''}
          {r.message}
        </div>
      ))}
      {notes.map((n) => (
        <div key={n} className="muted">
          {n}
        </div>
      ))}
    </div>
  )
}

/** The saved whole output of a call the model got cut, or undefined when the result is whole. */
function useFullOutput(part: ToolPart): (() => Promise<string>) | undefined {
  const chat = useChatController()
  if (record(part.state.metadata).truncated !== true) return undefined
  return async () => cardText((await unwrap(chat.bridge.session.toolOutput({ sessionId: part.sessionId, partId: part.id }))).text)
}

function BashBody({ part }: { part: ToolPart }) {
  const meta = record(part.state.metadata)
  const running = part.state.status === 'running' || part.state.status === 'pending'
  const text = running ? (str(meta.output) ?? '') : cardText(part.state.output ?? str(meta.output) ?? '')
  const exitCode = num(meta.exitCode)
  const blocked = Array.isArray(meta.sandboxBlocked) ? meta.sandboxBlocked.filter((n): n is string => typeof n === 'string') : []
  const withheld = Array.isArray(meta.droppedEnv) ? meta.droppedEnv.filter((n): n is string => typeof n === 'string') : []
  const full = useFullOutput(part)
  return (
    <>
      <pre className="tool-command mono">$ {str(record(part.state.input).command)}</pre>
      {blocked.length > 0 && (
        <ul className="tool-sandbox-notes" data-testid="sandbox-blocked">
          {blocked.map((note) => (
            <li key={note}>
              <ShieldIcon /> {note}
            </li>
          ))}
        </ul>
      )}
      {(text || running) && <Output text={text || '…'} testId="bash-output" follow={running} {...(full ? { full } : {})} />}
      {withheld.length > 0 && (
        <div className="tool-sandbox-env muted" data-testid="sandbox-env" title={withheld.join(', ')}>
          <ShieldIcon /> {withheld.length} secret variable{withheld.length === 1 ? '' : 's'} withheld from the command
        </div>
      )}
      {exitCode !== undefined && (
        <div className={`tool-exit ${exitCode === 0 ? 'ok' : 'bad'}`} data-testid="bash-exit">
          exit {exitCode}
        </div>
      )}
    </>
  )
}

function TodoBody({ part }: { part: ToolPart }) {
  const todos = record(part.state.metadata).todos ?? record(part.state.input).todos
  if (!Array.isArray(todos)) return null
  return (
    <ul className="todo-list compact">
      {todos.map(record).map((t, i) => (
        <li key={i} className={`todo todo-${str(t.status) ?? 'pending'}`}>
          {str(t.content)}
        </li>
      ))}
    </ul>
  )
}

function OutputOf({ part }: { part: ToolPart }) {
  const full = useFullOutput(part)
  return <Output text={cardText(part.state.output ?? '')} testId="tool-output" {...(full ? { full } : {})} />
}

function ToolHookFailures({ part }: { part: ToolPart }) {
  const failures = toolHookFailures(part)
  if (failures.length === 0) return null
  const events = [...new Set(failures.map((f) => f.event))]
  return (
    <>
      {events.map((event) => (
        <HookFailures key={event ?? ''} {...(event ? { event } : {})} failures={failures.filter((f) => f.event === event)} />
      ))}
    </>
  )
}

/** What an opened tool card shows: per-tool details, then input, output and error. */
export function ToolBody({ part, root }: { part: ToolPart; root: string }) {
  const { state } = part
  const special =
    part.tool === 'bash' ? (
      <BashBody part={part} />
    ) : EDIT_TOOLS.has(part.tool) ? (
      // The diff of an edit is shown in the editor (the chip opens it), never in the chat column.
      <EditDiagnostics part={part} />
    ) : part.tool === 'task' ? (
      <SubagentRun part={part} root={root} />
    ) : part.tool === 'websearch' ? (
      <WebSearchResults part={part} />
    ) : part.tool === 'todowrite' || part.tool === 'todoread' ? (
      <TodoBody part={part} />
    ) : null
  const showOutput = part.tool !== 'bash' && part.tool !== 'task' && state.output
  return (
    <>
      <ToolHookFailures part={part} />
      {special}
      {state.error && (
        <pre className="tool-error" role="alert" data-testid="tool-error">
          {state.error}
        </pre>
      )}
      {state.status === 'pending' && state.raw && <pre className="tool-output muted">{state.raw}</pre>}
      <Section title="Input" initiallyOpen={special === null && !state.output}>
        <pre className="tool-output">{JSON.stringify(state.input, null, 2)}</pre>
      </Section>
      {showOutput && (
        <Section title="Output" initiallyOpen={special === null}>
          <OutputOf part={part} />
        </Section>
      )}
    </>
  )
}
