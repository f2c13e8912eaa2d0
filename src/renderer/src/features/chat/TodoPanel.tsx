import { useState } from 'react'
import { useChat, type ChatState, type Todo } from '../../stores/chat'

const NONE: Todo[] = []

/** The todo list from the last `session:todos` event, else from the transcript's latest todo call. */
function todosOf(s: ChatState, sessionId: string): Todo[] {
  const live = s.todos[sessionId]
  if (live) return live
  const t = s.transcripts[sessionId]
  if (!t) return NONE
  for (let i = t.order.length - 1; i >= 0; i--) {
    const parts = t.parts[t.order[i] ?? ''] ?? []
    for (let j = parts.length - 1; j >= 0; j--) {
      const p = parts[j]
      if (p?.type !== 'tool' || (p.tool !== 'todowrite' && p.tool !== 'todoread')) continue
      const todos = p.state.metadata?.todos
      if (Array.isArray(todos)) return todos as Todo[]
    }
  }
  return NONE
}

const MARK: Record<string, string> = { completed: '✓', in_progress: '◐', cancelled: '✕' }

/** The agent's plan for the session, above the transcript; collapsible to one line. */
export function TodoPanel({ sessionId }: { sessionId: string }) {
  const todos = useChat((s) => todosOf(s, sessionId))
  const [open, setOpen] = useState(true)
  if (todos.length === 0) return null
  const done = todos.filter((t) => t.status === 'completed').length
  const current = todos.find((t) => t.status === 'in_progress')
  return (
    <section className="todo-panel" data-testid="todo-panel" aria-label="Todos">
      <button type="button" className="todo-head" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className={`twisty ${open ? 'open' : 'closed'}`} aria-hidden />
        <span>
          Todos {done}/{todos.length}
        </span>
        {!open && current && <span className="muted todo-current">{current.content}</span>}
      </button>
      {open && (
        <ul className="todo-list">
          {todos.map((t, i) => (
            <li key={t.id ?? i} className={`todo todo-${t.status}`}>
              <span className="todo-mark" aria-hidden>
                {MARK[t.status] ?? '○'}
              </span>
              <span>{t.content}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
