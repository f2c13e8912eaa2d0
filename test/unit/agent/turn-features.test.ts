import { describe, expect, it } from 'vitest'
import { registerTurnFeatures, TURN_HOOK_ORDER } from '../../../src/main/core/agent/turn-features'
import { TurnHookRegistry, type TurnHookPoint } from '../../../src/main/core/agent/turn-hooks'

const points = Object.keys(TURN_HOOK_ORDER) as TurnHookPoint[]

describe('registerTurnFeatures', () => {
  it('registers each feature at its points in the order of the table, whatever order the features come in', () => {
    const hooks = new TurnHookRegistry()
    const nothing = () => undefined
    registerTurnFeatures(hooks, {
      titles: { 'turn.willStart': nothing, 'turn.didEnd': nothing },
      lsp: { 'turn.willStart': nothing, 'tool.didRun': nothing, 'step.didEnd': nothing },
      compaction: { 'step.didEnd': nothing },
      checkpoints: { 'turn.willStart': nothing, 'tool.willRun': nothing, 'tool.didRun': nothing, 'step.didEnd': nothing, 'turn.didEnd': nothing },
      'user-hooks': { 'turn.willStart': nothing, 'tool.willRun': nothing, 'tool.didRun': nothing, 'turn.didEnd': nothing },
    })
    for (const point of points) expect(hooks.names(point)).toEqual(TURN_HOOK_ORDER[point])
  })

  it('leaves out absent features, and disposing the registration removes every hook it added', async () => {
    const hooks = new TurnHookRegistry()
    const registration = registerTurnFeatures(hooks, { compaction: { 'step.didEnd': () => undefined } })
    expect(hooks.names('step.didEnd')).toEqual(['compaction'])
    await registration.dispose()
    for (const point of points) expect(hooks.names(point)).toEqual([])
  })

  it('refuses a feature hook at a point the table does not place it at, instead of never running it', () => {
    const hooks = new TurnHookRegistry()
    expect(() => registerTurnFeatures(hooks, { titles: { 'tool.willRun': () => undefined } })).toThrow('the titles feature has a tool.willRun hook that TURN_HOOK_ORDER does not place')
    for (const point of points) expect(hooks.names(point)).toEqual([])
  })
})
