import { describe, expect, it } from 'vitest'
import type { Message, Part } from '@shared/schema/session'
import { applyBatch, transcriptFrom, type SeqEvent } from '../../../src/renderer/src/stores/chat-model'

const message: Message = { id: 'msg_1', sessionId: 'ses_1', role: 'assistant', agent: 'build', model: 'anthropic/claude-sonnet-4-6', createdAt: 1 }
const text: Part = { id: 'prt_1', sessionId: 'ses_1', messageId: 'msg_1', type: 'text', text: '' }

function delta(seq: number, value: string): SeqEvent {
  return { kind: 'delta', payload: { sessionId: 'ses_1', seq, messageId: 'msg_1', partId: 'prt_1', field: 'text', delta: value } }
}

describe('session events and their per-session seq', () => {
  const start = (): ReturnType<typeof applyBatch> =>
    applyBatch({ sessions: {}, transcripts: { ses_1: transcriptFrom([{ info: message, parts: [text] }]) } }, [
      { kind: 'message', payload: { sessionId: 'ses_1', seq: 4, message } },
    ])

  it('applies events in order, takes the first after a snapshot as the baseline and skips repeats', () => {
    const first = start()
    const next = applyBatch(first, [delta(5, 'Hel'), delta(5, 'Hel'), delta(6, 'lo')])
    expect(next.resync).toEqual([])
    const part = next.transcripts.ses_1?.parts.msg_1?.[0]
    expect(part?.type === 'text' ? part.text : undefined).toBe('Hello')
    expect(next.transcripts.ses_1?.seq).toBe(6)
  })

  it('a gap reloads that session: it is marked loading and listed for resync', () => {
    const first = start()
    const next = applyBatch(first, [delta(5, 'Hel'), delta(7, 'lo')])
    expect(next.resync).toEqual(['ses_1'])
    expect(next.transcripts.ses_1?.status).toBe('loading')
  })
})
