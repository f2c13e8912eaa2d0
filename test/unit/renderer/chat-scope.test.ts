import { beforeEach, describe, expect, it } from 'vitest'
import type { Worktree } from '../../../src/shared/schema/worktree'
import { chatScope, projectsOfTab, shownChatProject, tabOf, tabStatus, useChatScope, worktreeOfProject } from '../../../src/renderer/src/stores/chat-scope'
import { memoryStorage } from './memory-storage'

const worktree = (name: string, projectId: string): Worktree => ({
  name,
  kind: 'git',
  branch: `hotaru/${name}`,
  path: `/data/worktrees/${name}`,
  base: 'abc',
  parentProjectId: 'main',
  projectId,
  createdAt: 1,
  mergedAt: null,
  sessions: 1,
  changedFiles: 2,
  status: 'idle',
  open: true,
  ports: null,
})

describe('which chat a tab shows', () => {
  beforeEach(() => {
    Object.defineProperty(globalThis, 'localStorage', { value: memoryStorage(), configurable: true })
    useChatScope.setState({ worktrees: {}, shown: {} })
  })

  it('the shown worktree comes back after a reload, unless it was removed', () => {
    chatScope.setWorktrees('main', [worktree('one', 'wt1')])
    chatScope.show('main', 'one')
    // A reload: the store starts empty and the tab lists its worktrees again.
    chatScope.drop('main')
    chatScope.setWorktrees('main', [worktree('one', 'wt1')])
    expect(shownChatProject('main')).toBe('wt1')
    chatScope.drop('main')
    chatScope.setWorktrees('main', [])
    expect(shownChatProject('main')).toBe('main')
    chatScope.drop('main')
    chatScope.setWorktrees('main', [worktree('one', 'wt1')])
    expect(shownChatProject('main')).toBe('main')
  })

  it('maps worktree projects to their tab and follows the shown worktree until it goes', () => {
    chatScope.setWorktrees('main', [worktree('one', 'wt1'), worktree('two', 'wt2')])
    expect(tabOf('wt2')).toBe('main')
    expect(tabOf('other')).toBe('other')
    expect(worktreeOfProject('wt1')?.name).toBe('one')
    expect(projectsOfTab('main')).toEqual(['main', 'wt1', 'wt2'])
    expect(shownChatProject('main')).toBe('main')
    chatScope.show('main', 'two')
    expect(shownChatProject('main')).toBe('wt2')
    // The shown worktree was removed: the tab is back on its main folder.
    chatScope.setWorktrees('main', [worktree('one', 'wt1')])
    expect(shownChatProject('main')).toBe('main')
    chatScope.drop('main')
    expect(tabOf('wt1')).toBe('wt1')
  })

  it('a tab counts the running sessions of its worktrees and shows the most pressing state', () => {
    chatScope.setWorktrees('main', [worktree('one', 'wt1')])
    expect(tabStatus('main', { main: 'error', wt1: 'running' }, { main: 0, wt1: 2 })).toEqual({ state: 'running', count: 2 })
    expect(tabStatus('main', { main: 'running', wt1: 'waiting' }, { main: 1, wt1: 1 })).toEqual({ state: 'waiting', count: 2 })
    expect(tabStatus('main', {}, {})).toEqual({ state: 'idle', count: 0 })
  })
})
