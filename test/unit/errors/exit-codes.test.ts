import { describe, expect, it } from 'vitest'
import { Errors, type ErrorName } from '@shared/errors'
import { runExitCode } from '../../../src/cli/exit-codes'

describe('the exit code of a failed turn', () => {
  it('hotaru run exits 5 on a busy session and 1 on any other failed turn', () => {
    const names = Object.keys(Errors) as ErrorName[]
    expect(names.filter((name) => runExitCode(name) === 5)).toEqual(['SessionBusy'])
    expect(names.every((name) => [1, 5].includes(runExitCode(name)))).toBe(true)
  })

})
