import { describe, expect, it } from 'vitest'
import { takeWorktreeFlag } from '../../../src/cli/worktree-flag'

const VALUED = new Set(['--dir', '--model', '--agent', '--session', '--format'])
const take = (...argv: string[]) => takeWorktreeFlag(argv, VALUED)

describe('run --worktree [NAME]', () => {
  it('takes the word after the flag as the name when a message is left', () => {
    expect(take('--worktree', 'feat', 'fix', 'it')).toEqual({ argv: ['fix', 'it'], worktree: 'feat' })
    expect(take('fix it', '-w', 'feat')).toEqual({ argv: ['fix it'], worktree: 'feat' })
    expect(take('--worktree=feat', 'go')).toEqual({ argv: ['go'], worktree: 'feat' })
  })

  it('generates a name when the next word is the message, an option, or not a name', () => {
    expect(take('-w', 'add a flag')).toEqual({ argv: ['add a flag'], worktree: true })
    expect(take('-w', 'hello')).toEqual({ argv: ['hello'], worktree: true })
    expect(take('-w', '--yes', 'go')).toEqual({ argv: ['--yes', 'go'], worktree: true })
    expect(take('--dir', '/p', '-w', 'msg')).toEqual({ argv: ['--dir', '/p', 'msg'], worktree: true })
  })

  it('does not count option values as the message', () => {
    expect(take('-w', 'feat', '--dir', '/p')).toEqual({ argv: ['feat', '--dir', '/p'], worktree: true })
    expect(take('--dir', 'feat', '-w', 'x', 'go')).toEqual({ argv: ['--dir', 'feat', 'go'], worktree: 'x' })
  })

  it('refuses an invalid name given with =', () => {
    expect(() => take('--worktree=../x', 'go')).toThrow(/invalid name/)
  })
})
