import { describe, expect, test } from 'vitest'
import { mergeConfig } from '../../../src/main/core/config/merge'

describe('mergeConfig', () => {
  test('objects merge, arrays and scalars replace', () => {
    expect(mergeConfig({ a: { x: 1, y: [1, 2] }, b: 1 }, { a: { y: [3] }, c: 2 })).toEqual({ a: { x: 1, y: [3] }, b: 1, c: 2 })
  })

  test('keys set by the override move to the end in its order', () => {
    const merged = mergeConfig({ '*': 'ask', 'git push*': 'deny', keep: 'x' }, { 'rm *': 'deny', '*': 'allow' })
    expect(Object.keys(merged as object)).toEqual(['git push*', 'keep', 'rm *', '*'])
  })

  test('an object whose type changes is replaced', () => {
    expect(mergeConfig({ type: 'local', command: 'x' }, { type: 'remote', url: 'u' })).toEqual({ type: 'remote', url: 'u' })
    expect(mergeConfig({ type: 'local', command: 'x' }, { type: 'local', cwd: '/' })).toEqual({ type: 'local', command: 'x', cwd: '/' })
  })

  test('inputs are not mutated', () => {
    const base = { a: { b: 1 } }
    const override = { a: { c: 2 } }
    mergeConfig(base, override)
    expect(base).toEqual({ a: { b: 1 } })
    expect(override).toEqual({ a: { c: 2 } })
  })
})
