import { describe, expect, it } from 'vitest'
import { EventBus } from '../../../src/main/core/bus/bus'
import { NoticeLog } from '../../../src/main/core/project/notices'

describe('NoticeLog', () => {
  it('keeps project notices and MCP warnings per project, counts repeats and forgets a closed project', () => {
    const bus = new EventBus()
    let now = 1
    const log = new NoticeLog(bus, () => now)
    bus.publish('project:notice', { projectId: 'p1', level: 'warning', message: '/p/.hotaru/skills/x/SKILL.md: no description', file: '/p/.hotaru/skills/x/SKILL.md' }, 'p1')
    bus.publish('mcp:warning', { message: 'server "db" failed: exit code 1' }, 'p1')
    bus.publish('project:notice', { projectId: 'p2', level: 'info', message: 'other project' }, 'p2')
    now = 5
    bus.publish('project:notice', { projectId: 'p1', level: 'warning', message: '/p/.hotaru/skills/x/SKILL.md: no description', file: '/p/.hotaru/skills/x/SKILL.md' }, 'p1')
    expect(log.list('p1')).toEqual([
      { id: expect.any(String), source: 'mcp', level: 'warning', message: 'server "db" failed: exit code 1', count: 1, at: 1 },
      { id: expect.any(String), source: 'project', level: 'warning', message: '/p/.hotaru/skills/x/SKILL.md: no description', file: '/p/.hotaru/skills/x/SKILL.md', count: 2, at: 5 },
    ])
    expect(log.list('p2').map((n) => n.message)).toEqual(['other project'])
    bus.publish('project:closed', { projectId: 'p2' }, 'p2')
    expect(log.list('p2')).toEqual([])
  })

  it('dismisses one or all; a dismissed text published again stays dismissed, a new one shows', () => {
    const bus = new EventBus()
    const log = new NoticeLog(bus)
    const notice = (message: string) => bus.publish('project:notice', { projectId: 'p', level: 'warning', message }, 'p')
    notice('a')
    notice('b')
    notice('c')
    const [a] = log.list('p')
    expect(log.dismiss('p', [a?.id ?? ''])).toBe(1)
    expect(log.list('p').map((n) => n.message)).toEqual(['b', 'c'])
    notice('a')
    expect(log.list('p').map((n) => n.message)).toEqual(['b', 'c'])
    expect(log.dismiss('p')).toBe(2)
    notice('d')
    expect(log.list('p').map((n) => n.message)).toEqual(['d'])
    expect(log.dismiss('unknown')).toBe(0)
  })

  it('retires the restricted-mode notice of a folder once it is trusted, and only that one', () => {
    const bus = new EventBus()
    const log = new NoticeLog(bus)
    bus.publish('project:notice', { projectId: 'p', level: 'info', message: 'Restricted mode: /p is not trusted, so its own config and files did not run or widen anything:' }, 'p')
    bus.publish('project:notice', { projectId: 'p', level: 'warning', message: 'broken skill' }, 'p')
    bus.publish('trust:changed', { path: '/p', trusted: false, projectIds: ['p'] })
    expect(log.list('p')).toHaveLength(2)
    bus.publish('trust:changed', { path: '/p', trusted: true, projectIds: ['p'] })
    expect(log.list('p').map((n) => n.message)).toEqual(['broken skill'])
    // Restricted again later: the notice may show again (retired, not dismissed).
    bus.publish('project:notice', { projectId: 'p', level: 'info', message: 'Restricted mode: /p is not trusted, so its own config and files did not run or widen anything:' }, 'p')
    expect(log.list('p')).toHaveLength(2)
  })
})
