import { describe, expect, it } from 'vitest'
import type { RecentProject } from '@shared/schema/project'
import { dropPathRequest, recentProjectNamed } from '../../../src/renderer/src/features/workspace/drop-suggestion'

const project = (root: string, lastOpenedAt: number, exists = true): RecentProject => ({ id: root, root, name: root.split('/').pop() ?? root, lastOpenedAt, exists })

describe('a folder dropped in a browser', () => {
  const recent = [project('/home/u/old/app', 1), project('/home/u/work/app', 5), project('/home/u/gone/app', 9, false), project('/home/u/site', 3)]

  it('suggests the most recently opened project of that name that still exists', () => {
    expect(recentProjectNamed(recent, 'app')?.root).toBe('/home/u/work/app')
    expect(recentProjectNamed(recent, 'site')?.root).toBe('/home/u/site')
    expect(recentProjectNamed(recent, 'other')).toBeUndefined()
    expect(recentProjectNamed(recent, '')).toBeUndefined()
  })

  it('fills the path dialog with it and says why; a file or an unknown name asks for the path', () => {
    expect(dropPathRequest(recent, 'app', false)).toEqual({
      reason: expect.stringContaining('“app” has the name of a recent project, /home/u/work/app'),
      initial: '/home/u/work/app',
    })
    expect(dropPathRequest(recent, 'app', true)).toEqual({ reason: expect.stringContaining('dropped file'), initial: '' })
    expect(dropPathRequest(recent, 'other', false)).toEqual({ reason: expect.stringContaining('Enter the full path of “other”'), initial: '' })
  })
})
