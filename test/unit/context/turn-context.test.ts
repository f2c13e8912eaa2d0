import { describe, expect, it } from 'vitest'
import { toModelMessages } from '../../../src/main/core/agent/transcript'
import { checkInvariant } from '../../../src/main/core/context/invariant'
import { changedSections, contextText, sentSections } from '../../../src/main/core/context/turn-context'
import { contextView, viewMessages } from '../../../src/main/core/context/window'
import { assistant, marker, text, tool, user, userWithContext } from './builders'

const instructions = { name: 'instructions:/p/AGENTS.md', text: 'Use tabs.' }

describe('turn context', () => {
  it('sends a section again only when its text changed, and says when an instruction file is gone', () => {
    const history = [userWithContext('one', [{ name: 'date', text: '2026-12-07' }, { name: 'git', text: 'clean' }, instructions]), assistant([text('ok')])]
    const sent = sentSections(history)
    expect(changedSections([{ name: 'date', text: '2026-12-07' }, { name: 'git', text: 'clean' }, instructions], sent)).toEqual([])
    expect(changedSections([{ name: 'date', text: '2026-12-08' }, { name: 'git', text: 'clean' }, instructions], sent)).toEqual([{ name: 'date', text: '2026-12-08' }])
    const removed = changedSections([{ name: 'date', text: '2026-12-07' }, { name: 'git', text: 'clean' }], sent)
    expect(removed).toEqual([{ name: 'instructions:/p/AGENTS.md', text: '' }])
    expect(contextText(removed)).toContain('/p/AGENTS.md was removed')
  })

  it('puts the context ahead of the user words, and late facts of a step after its tool results', () => {
    const first = userWithContext('fix the bug', [instructions])
    const step = assistant([tool('edit', 'Edited a.ts'), { type: 'context', sections: [{ name: 'diagnostics', text: 'a.ts:1:1 error TS2322' }] }])
    const { messages } = toModelMessages([first, step, assistant([text('done')])])
    expect(checkInvariant(messages)).toEqual([])
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user', 'assistant'])
    expect(JSON.stringify(messages[0])).toMatch(/system-reminder[\s\S]*Use tabs[\s\S]*fix the bug/)
    expect(JSON.stringify(messages[3])).toContain('TS2322')
  })

  it('carries the latest context of summarized messages into the summary, so instructions survive a compaction', () => {
    const a = userWithContext('first task', [instructions, { name: 'git', text: 'clean' }])
    const b = assistant([text('done first')])
    const c = userWithContext('second task', [{ name: 'git', text: '2 changed file(s)' }])
    const m = marker('summary', c.info.id)
    const d = user('third task')
    const view = contextView([a, b, c, assistant([text('ok')]), m, d])
    expect(view.carried).toEqual([instructions, { name: 'git', text: '2 changed file(s)' }])
    const sent = JSON.stringify(toModelMessages(viewMessages(view)).messages[0])
    expect(sent).toContain('Use tabs.')
    expect(sent).toContain('2 changed file(s)')
    expect(sent).not.toContain('first task')
  })
})
