import { describe, expect, it } from 'vitest'
import type { SeqEvent } from '../../../src/renderer/src/stores/chat-model'
import { initialChatState, type ChatState } from '../../../src/renderer/src/stores/project-chat'
import { describeActivity, foldActivity, runningRoots, sessionBadge } from '../../../src/renderer/src/stores/session-activity'
import type { Part, Session } from '../../../src/shared/schema/session'

const A = 'ses_aaaaaaaaaaaa'
const B = 'ses_bbbbbbbbbbbb'
const CHILD = 'ses_cccccccccccc'

const session = (id: string, parentId: string | null = null): Session => ({ id, projectId: 'p', parentId, title: id.slice(4, 7), agent: 'build', model: 'm/x', createdAt: 1, updatedAt: 1 })
const message = (sessionId: string, id: string, role: 'user' | 'assistant'): SeqEvent => ({
  kind: 'message',
  payload: { sessionId, seq: 1, message: { id, sessionId, role, agent: 'build', model: 'm/x', createdAt: 1 } },
})
const part = (p: Part): SeqEvent => ({ kind: 'part', payload: { sessionId: p.sessionId, seq: 2, part: p } })
const tool = (sessionId: string, messageId: string, status: 'running' | 'completed'): Part => ({
  id: 'prt_tttttttttttt',
  messageId,
  sessionId,
  type: 'tool',
  callId: 'c1',
  tool: 'bash',
  state: { status, input: {}, title: 'npm test' },
})

function state(patch: Partial<ChatState>): ChatState {
  return { ...initialChatState('p'), sessions: { [A]: session(A), [B]: session(B), [CHILD]: session(CHILD, A) }, ...patch }
}

describe('what a running session is doing', () => {
  it('follows the latest part of each session, ignoring the user message', () => {
    const users = new Set<string>()
    let activity = foldActivity({}, [message(A, 'msg_user00000001', 'user'), part({ id: 'prt_u00000000001', messageId: 'msg_user00000001', sessionId: A, type: 'text', text: 'hi' })], users)
    expect(activity[A]).toBeUndefined()
    activity = foldActivity(activity, [message(A, 'msg_asst00000001', 'assistant'), part({ id: 'prt_r00000000001', messageId: 'msg_asst00000001', sessionId: A, type: 'reasoning', text: '' })], users)
    expect(activity[A]).toEqual({ kind: 'thinking' })
    activity = foldActivity(activity, [part(tool(A, 'msg_asst00000001', 'running')), part({ id: 'prt_b00000000001', messageId: 'msg_bbbb00000001', sessionId: B, type: 'text', text: 'x' })], users)
    expect(activity[A]).toEqual({ kind: 'tool', tool: 'bash', title: 'npm test' })
    expect(activity[B]).toEqual({ kind: 'writing' })
    const same = foldActivity(activity, [part(tool(A, 'msg_asst00000001', 'running'))], users)
    expect(same).toBe(activity)
    expect(foldActivity(activity, [part(tool(A, 'msg_asst00000001', 'completed'))], users)[A]).toEqual({ kind: 'waiting-model' })
  })

  it('badges: a permission ask of a subagent run marks its caller waiting; busy is streaming; failures stay until the next turn', () => {
    const ask = { id: 'per_1', sessionId: CHILD, projectId: 'p', permission: 'bash', patterns: ['rm x'], always: [], title: 'rm x', createdAt: 1 }
    const s = state({ statuses: { [A]: { type: 'busy' }, [CHILD]: { type: 'busy' }, [B]: { type: 'busy' } }, permissions: [ask], activity: { [B]: { kind: 'writing' } } })
    expect(sessionBadge(s, A)).toBe('waiting')
    expect(describeActivity(s, A)).toBe('waiting for permission: rm x')
    expect(sessionBadge(s, B)).toBe('streaming')
    expect(describeActivity(s, B)).toBe('streaming text')
    expect(runningRoots(s).sort()).toEqual([A, B])
    const failed = state({ turnErrors: { [A]: 'boom' } })
    expect(sessionBadge(failed, A)).toBe('error')
    expect(sessionBadge(failed, B)).toBe('idle')
    expect(runningRoots(failed)).toEqual([])
  })

  it('says what a working subagent run does rather than its caller waiting on it', () => {
    const s = state({ statuses: { [A]: { type: 'busy' }, [CHILD]: { type: 'busy' } }, activity: { [A]: { kind: 'tool', tool: 'task' }, [CHILD]: { kind: 'tool', tool: 'grep', title: 'TODO' } } })
    expect(describeActivity(s, A)).toBe('subagent ccc: running grep: TODO')
    const retry = state({ statuses: { [B]: { type: 'retry', attempt: 2, message: 'overloaded', nextAt: 0 } } })
    expect(sessionBadge(retry, B)).toBe('retrying')
    expect(describeActivity(retry, B)).toBe('retrying (attempt 2): overloaded')
  })
})
