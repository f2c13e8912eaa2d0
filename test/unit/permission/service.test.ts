import { describe, expect, it } from 'vitest'
import { MemoryApprovalStore } from '../../../src/main/core/permission/approval-store'
import { agentDefaultRules } from '../../../src/main/core/permission/defaults'
import { DoomLoopTracker } from '../../../src/main/core/permission/doom-loop'
import type { Rule } from '../../../src/main/core/permission/rule'
import { PermissionService, bindAsk, type PermissionEvent, type PermissionRequest } from '../../../src/main/core/permission/service'

const rules: Rule[] = [
  { permission: '*', pattern: '*', action: 'allow' },
  { permission: 'bash', pattern: '*', action: 'ask' },
  { permission: 'bash', pattern: 'rm -rf *', action: 'deny' },
]

function request(patterns: string[], extra: Partial<PermissionRequest> = {}): PermissionRequest {
  return {
    sessionId: 's1',
    projectId: 'p1',
    ruleset: rules,
    permission: 'bash',
    patterns,
    always: patterns.map((p) => `${p.split(' ')[0]} *`),
    title: patterns.join(' && '),
    ...extra,
  }
}

async function settled(promise: Promise<void>): Promise<'resolved' | string> {
  return promise.then(
    () => 'resolved',
    (error: Error) => error.name,
  )
}

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 0))

describe('PermissionService', () => {
  it('allows without asking when the rules allow, and denies by rule', async () => {
    const service = new PermissionService()
    const events: PermissionEvent[] = []
    service.onEvent((e) => events.push(e))
    await service.ask(request(['x'], { permission: 'read' }))
    await expect(service.ask(request(['rm -rf /']))).rejects.toMatchObject({ name: 'PermissionDenied' })
    expect(events).toEqual([])
  })

  it('a forced ask is denied by a deny rule but never allowed by a rule or a remembered approval', async () => {
    const service = new PermissionService()
    const allowAll: Rule[] = [{ permission: '*', pattern: '*', action: 'allow' }, { permission: 'bash', pattern: 'rm -rf *', action: 'deny' }]
    const forced = (patterns: string[]): PermissionRequest => request(patterns, { ruleset: allowAll, always: [], forceAsk: true })
    expect(await service.check(forced(['echo $((x))']))).toBe('ask')
    await expect(service.ask(forced(['rm -rf /', 'x']))).rejects.toMatchObject({ name: 'PermissionDenied' })
    // An approval remembered for the same text does not cover it either.
    const plain = service.ask(request(['echo hi'], { always: ['echo *'] }))
    await tick()
    await service.reply(service.pending()[0]?.id as string, { reply: 'always', scope: 'session' })
    expect(await settled(plain)).toBe('resolved')
    const pending = service.ask(forced(['echo $((x))']))
    await tick()
    expect(service.pending()).toEqual([expect.objectContaining({ forceAsk: true, always: [] })])
    await service.reply(service.pending()[0]?.id as string, { reply: 'once' })
    expect(await settled(pending)).toBe('resolved')
  })

  it('keeps an ask pending until a "once" reply', async () => {
    const service = new PermissionService()
    const events: PermissionEvent[] = []
    service.onEvent((e) => events.push(e))
    const pending = service.ask(request(['npm test']))
    await tick()
    const [info] = service.pending({ projectId: 'p1' })
    expect(info).toMatchObject({ permission: 'bash', patterns: ['npm test'], always: ['npm *'] })
    await service.reply(info?.id as string, { reply: 'once' })
    expect(await settled(pending)).toBe('resolved')
    expect(events.map((e) => e.type)).toEqual(['asked', 'replied'])
    // "once" remembers nothing
    const again = service.ask(request(['npm test']))
    await tick()
    expect(service.pending()).toHaveLength(1)
    service.cancelSession('s1')
    expect(await settled(again)).toBe('PermissionRejected')
  })

  it('"always" remembers the patterns and resolves other pending asks it covers', async () => {
    const service = new PermissionService()
    const a = service.ask(request(['git status'], { always: ['git status *'] }))
    const b = service.ask(request(['git status -s'], { always: ['git status *'] }))
    const c = service.ask(request(['git push'], { always: ['git push *'] }))
    await tick()
    const first = service.pending()[0]
    await service.reply(first?.id as string, { reply: 'always', scope: 'session' })
    expect(await settled(a)).toBe('resolved')
    expect(await settled(b)).toBe('resolved')
    expect(service.pending().map((p) => p.patterns)).toEqual([['git push']])
    await service.ask(request(['git status --porcelain']))
    service.cancelSession('s1')
    expect(await settled(c)).toBe('PermissionRejected')
  })

  it('never lets a remembered approval override a configured deny', async () => {
    const service = new PermissionService()
    const p = service.ask(request(['rm x'], { always: ['rm *'] }))
    await tick()
    await service.reply(service.pending()[0]?.id as string, { reply: 'always' })
    await p
    await service.ask(request(['rm y']))
    await expect(service.ask(request(['rm -rf /']))).rejects.toMatchObject({ name: 'PermissionDenied' })
  })

  it('reject with feedback rejects only that ask and carries the text', async () => {
    const service = new PermissionService()
    const a = service.ask(request(['npm test']))
    const b = service.ask(request(['npm run lint']))
    await tick()
    const [first] = service.pending()
    await service.reply(first?.id as string, { reply: 'reject', feedback: 'use pnpm' })
    await expect(a).rejects.toMatchObject({ name: 'PermissionRejected', data: { feedback: 'use pnpm' } })
    expect(service.pending()).toHaveLength(1)
    service.cancelSession('s1')
    await expect(b).rejects.toMatchObject({ name: 'PermissionRejected' })
  })

  it('reject without feedback rejects every pending ask of the session, not other sessions', async () => {
    const service = new PermissionService()
    const a = service.ask(request(['npm test']))
    const b = service.ask(request(['npm run lint']))
    const other = service.ask(request(['npm test'], { sessionId: 's2' }))
    await tick()
    await service.reply(service.pending({ sessionId: 's1' })[0]?.id as string, { reply: 'reject' })
    expect(await settled(a)).toBe('PermissionRejected')
    expect(await settled(b)).toBe('PermissionRejected')
    expect(service.pending().map((p) => p.sessionId)).toEqual(['s2'])
    service.cancelSession('s2')
    await expect(other).rejects.toBeDefined()
  })

  it('scopes approvals: turn ends with endTurn, session stays in its session, project spans sessions', async () => {
    const service = new PermissionService()
    const answer = async (req: PermissionRequest, scope: 'turn' | 'session' | 'project'): Promise<void> => {
      const p = service.ask(req)
      await tick()
      await service.reply(service.pending()[0]?.id as string, { reply: 'always', scope })
      await p
    }
    await answer(request(['make a'], { turnId: 't1', always: ['make a *'] }), 'turn')
    expect(await service.check(request(['make a'], { turnId: 't1' }))).toBe('allow')
    service.endTurn('s1', 't1')
    expect(await service.check(request(['make a'], { turnId: 't2' }))).toBe('ask')
    await answer(request(['make b'], { always: ['make b *'] }), 'session')
    expect(await service.check(request(['make b'], { sessionId: 's2' }))).toBe('ask')
    await answer(request(['make c'], { always: ['make c *'] }), 'project')
    expect(await service.check(request(['make c'], { sessionId: 's2' }))).toBe('allow')
    expect(await service.check(request(['make c'], { projectId: 'p2' }))).toBe('ask')
  })

  it('persists approvals through the ApprovalStore', async () => {
    const store = new MemoryApprovalStore()
    const first = new PermissionService({ store })
    const p = first.ask(request(['cargo test']))
    await tick()
    await first.reply(first.pending()[0]?.id as string, { reply: 'always', scope: 'persisted' })
    await p
    expect(store.list('p1')).toEqual([{ permission: 'bash', pattern: 'cargo *', action: 'allow' }])
    const second = new PermissionService({ store })
    await second.ask(request(['cargo build']))
  })

  it('does not offer "always" when there are no always patterns: it is treated as once', async () => {
    const service = new PermissionService()
    const p = service.ask(request(['$X'], { always: [] }))
    await tick()
    await service.reply(service.pending()[0]?.id as string, { reply: 'always' })
    await p
    const again = service.ask(request(['$X'], { always: [] }))
    await tick()
    expect(service.pending()).toHaveLength(1)
    service.dispose()
    await expect(again).rejects.toBeDefined()
  })

  it('drops a pending ask when its signal aborts', async () => {
    const service = new PermissionService()
    const controller = new AbortController()
    const p = service.ask(request(['npm test'], { signal: controller.signal }))
    await tick()
    controller.abort(new Error('stopped'))
    await expect(p).rejects.toThrow('stopped')
    expect(service.pending()).toEqual([])
    await expect(service.reply('perm_missing', { reply: 'once' })).rejects.toMatchObject({ name: 'NotFound' })
  })

  it('binds the session facts for ToolContext.ask', async () => {
    const service = new PermissionService()
    const ask = bindAsk(service, { sessionId: 's9', projectId: 'p9', ruleset: agentDefaultRules('build'), agent: 'build', callId: 'c1' })
    await ask({ permission: 'read', patterns: ['src/a.ts'], always: ['src/a.ts'], title: 'Read' })
    const pending = ask({ permission: 'bash', patterns: ['ls'], always: ['ls *'], title: 'ls' })
    await tick()
    expect(service.pending()[0]).toMatchObject({ sessionId: 's9', projectId: 'p9', agent: 'build', callId: 'c1', permission: 'bash' })
    await service.reply(service.pending()[0]?.id as string, { reply: 'once' })
    await pending
  })

  it('asks for doom loops under the build defaults', () => {
    const tracker = new DoomLoopTracker()
    expect(tracker.record('s1', 'read', { filePath: 'a', offset: 1 })).toBe(false)
    expect(tracker.record('s1', 'read', { offset: 1, filePath: 'a' })).toBe(false)
    expect(tracker.record('s2', 'read', { filePath: 'a', offset: 1 })).toBe(false)
    expect(tracker.record('s1', 'read', { filePath: 'a', offset: 1 })).toBe(true)
    expect(tracker.record('s1', 'read', { filePath: 'b' })).toBe(false)
    expect(agentDefaultRules('build').some((r) => r.permission === 'doom_loop' && r.action === 'ask')).toBe(true)
  })
})
