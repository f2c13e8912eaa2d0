import { describe, expect, it } from 'vitest'
import { addContextChip, chatContextFor, chipLabel, clearContextChips, contextBlock, splitContext, type ContextChip } from '../../../src/renderer/src/stores/chat-context'

const selection: ContextChip = { key: 1, kind: 'selection', path: 'src/a "b".ts', startLine: 3, endLine: 5, text: 'one\ntwo\nthree\n', state: 'ready' }
const file: ContextChip = { key: 2, kind: 'file', path: 'README.md', text: '# Title\n', state: 'ready' }

describe('context chips', () => {
  it('names a selection by file and lines', () => {
    expect(chipLabel(selection)).toBe('src/a "b".ts:3-5')
    expect(chipLabel({ path: 'x.ts', startLine: 7, endLine: 7 })).toBe('x.ts:7')
    expect(chipLabel(file)).toBe('README.md')
  })

  it('sends each chip as a tagged block and shows a sent message as its own text and chips', () => {
    const text = `Why?\n\n${contextBlock(selection)}\n\n${contextBlock(file)}`
    expect(contextBlock(selection)).toBe('<selection path="src/a &quot;b&quot;.ts" lines="3-5">\none\ntwo\nthree\n</selection>')
    expect(splitContext(text)).toEqual({
      own: 'Why?',
      context: [
        { kind: 'selection', label: 'src/a "b".ts:3-5', text: 'one\ntwo\nthree' },
        { kind: 'file', label: 'README.md', text: '# Title' },
      ],
    })
    expect(splitContext('plain text')).toEqual({ own: 'plain text', context: [] })
  })

  it('keeps one chip per selection and clears them as the message is sent', () => {
    const project = 'p-test'
    addContextChip(project, { kind: 'selection', path: 'a.ts', startLine: 1, endLine: 2, text: 'x', state: 'ready' })
    addContextChip(project, { kind: 'selection', path: 'a.ts', startLine: 1, endLine: 2, text: 'x', state: 'ready' })
    expect(chatContextFor(project).getState().chips).toHaveLength(1)
    expect(clearContextChips(project)).toHaveLength(1)
    expect(chatContextFor(project).getState().chips).toHaveLength(0)
  })
})
