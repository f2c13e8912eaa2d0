import { useState } from 'react'
import type { PendingQuestion } from '@shared/ipc/question'
import { useChatController } from '../../stores/chat'
import { background } from '../../lib/background'

type Item = PendingQuestion['questions'][number]

function QuestionItem({ item, name, chosen, other, onToggle, onOther }: {
  item: Item
  /** Groups the radio buttons of one question. */
  name: string
  chosen: string[]
  other: string
  onToggle(label: string): void
  onOther(text: string): void
}) {
  return (
    <fieldset className="question-item">
      <legend>
        {item.header && <span className="badge-pill">{item.header}</span>} {item.question}
      </legend>
      <div className="question-options" role={item.multiple ? 'group' : 'radiogroup'}>
        {item.options.map((option) => (
          <label key={option.label} className={`question-option${chosen.includes(option.label) ? ' chosen' : ''}`} title={option.description}>
            <input type={item.multiple ? 'checkbox' : 'radio'} name={name} checked={chosen.includes(option.label)} onChange={() => onToggle(option.label)} />
            <span className="question-label">{option.label}</span>
            {option.description && <span className="muted question-desc">{option.description}</span>}
          </label>
        ))}
      </div>
      <input className="question-other" placeholder="Or type your own answer" value={other} onChange={(e) => onOther(e.target.value)} aria-label={`Own answer to: ${item.question}`} />
    </fieldset>
  )
}

/** A `question` tool prompt, answered in the chat: pick options or type an answer. */
export function QuestionPrompt({ question }: { question: PendingQuestion }) {
  const chat = useChatController()
  const [chosen, setChosen] = useState<string[][]>(() => question.questions.map(() => []))
  const [other, setOther] = useState<string[]>(() => question.questions.map(() => ''))
  const answers = question.questions.map((_, i) => {
    const own = other[i]?.trim()
    return own ? [...(question.questions[i]?.multiple ? (chosen[i] ?? []) : []), own] : (chosen[i] ?? [])
  })
  const complete = answers.every((a) => a.length > 0)
  const toggle = (i: number, label: string): void => {
    setChosen((all) =>
      all.map((list, j) => {
        if (j !== i) return list
        if (!question.questions[i]?.multiple) return [label]
        return list.includes(label) ? list.filter((l) => l !== label) : [...list, label]
      }),
    )
  }
  return (
    <form
      className="question-card"
      data-testid="question-prompt"
      onSubmit={(e) => {
        e.preventDefault()
        if (complete) background('chat.answerQuestion', chat.answerQuestion(question.id, answers))
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation()
          background('chat.dismissQuestion', chat.dismissQuestion(question.id))
        }
      }}
    >
      <div className="ask-head">
        <span className="glyph glyph-waiting" aria-hidden />
        <h3>The agent asks</h3>
      </div>
      {question.questions.map((item, i) => (
        <QuestionItem
          key={i}
          item={item}
          name={`${question.id}-${i}`}
          chosen={chosen[i] ?? []}
          other={other[i] ?? ''}
          onToggle={(label) => toggle(i, label)}
          onOther={(text) => setOther((all) => all.map((t, j) => (j === i ? text : t)))}
        />
      ))}
      <div className="ask-actions">
        <button type="submit" className="primary" disabled={!complete} data-testid="question-submit">
          Answer
        </button>
        <button type="button" onClick={() => background('chat.dismissQuestion', chat.dismissQuestion(question.id))} data-testid="question-dismiss">
          Dismiss
        </button>
      </div>
    </form>
  )
}
