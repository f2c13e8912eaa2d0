import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { completeFolder, expandTilde } from '../../src/main/core/project/path-complete'
import { tempDir } from '../support/temp'

describe('open folder path completion', () => {
  it('expands ~ and completes folders the way they were typed', () => {
    const home = tempDir()
    for (const d of ['projects/app', 'projects/api', 'projects/.hidden', 'Pictures']) mkdirSync(join(home, d), { recursive: true })
    writeFileSync(join(home, 'projects', 'apple.txt'), '')
    expect(expandTilde('~/projects', home)).toBe(join(home, 'projects'))
    expect(expandTilde('/abs', home)).toBe('/abs')
    expect(completeFolder('~/projects/ap', 20, home)).toEqual(['~/projects/api/', '~/projects/app/'])
    expect(completeFolder('~/projects/', 20, home)).toEqual(['~/projects/api/', '~/projects/app/'])
    expect(completeFolder('~/projects/.h', 20, home)).toEqual(['~/projects/.hidden/'])
    expect(completeFolder(`${home}/pic`, 20, home)).toEqual([`${home}/Pictures/`])
    expect(completeFolder('~/nope/x', 20, home)).toEqual([])
    expect(completeFolder('relative/path', 20, home)).toEqual([])
  })
})
