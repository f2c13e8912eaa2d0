import { DisposableStore, type Disposable } from '../util/disposable'
import type { TurnHookHandlers, TurnHookPoint, TurnHookRegistry } from './turn-hooks'

/** The features that join a turn, each through the extension points it needs. */
export type TurnFeatureName = 'checkpoints' | 'user-hooks' | 'lsp' | 'titles' | 'compaction'

/** A feature's hooks, by extension point. */
export type TurnFeature = { readonly [P in TurnHookPoint]?: TurnHookHandlers[P] }

/**
 * The one place that says in which order the features run at each point of a turn
 * (docs/decisions/turn-hooks.md explains each place):
 *
 * | point            | order                                  |
 * | ---------------- | -------------------------------------- |
 * | `turn.willStart` | user-hooks, lsp, checkpoints, titles   |
 * | `tool.willRun`   | checkpoints, user-hooks                |
 * | `tool.didRun`    | lsp, user-hooks, checkpoints           |
 * | `step.didEnd`    | checkpoints, compaction, lsp           |
 * | `turn.didEnd`    | user-hooks, titles, checkpoints        |
 *
 * A `UserPromptSubmit` hook refuses a message before anything else looks at it; a tool call waits for the
 * checkpoint before it before a `PreToolUse` hook (a shell command) may change files; a `PostToolUse` hook
 * reads the call's result with its diagnostics; a checkpoint failure not told yet is the last line the model
 * reads; compaction frees room before late diagnostics are added; the checkpoints are recorded last, when
 * nothing of the turn may change files any more.
 */
export const TURN_HOOK_ORDER = {
  'turn.willStart': ['user-hooks', 'lsp', 'checkpoints', 'titles'],
  'tool.willRun': ['checkpoints', 'user-hooks'],
  'tool.didRun': ['lsp', 'user-hooks', 'checkpoints'],
  'step.didEnd': ['checkpoints', 'compaction', 'lsp'],
  'turn.didEnd': ['user-hooks', 'titles', 'checkpoints'],
} as const satisfies Record<TurnHookPoint, readonly TurnFeatureName[]>

/**
 * Registers each present feature's hooks in the order above. A feature's hook at a point the table does not
 * list for it is a mistake that would silently never run: it throws.
 */
export function registerTurnFeatures(hooks: TurnHookRegistry, features: Partial<Record<TurnFeatureName, TurnFeature>>): Disposable {
  const store = new DisposableStore()
  for (const [name, feature] of Object.entries(features) as [TurnFeatureName, TurnFeature | undefined][]) {
    for (const point of Object.keys(feature ?? {}) as TurnHookPoint[]) {
      if (!(TURN_HOOK_ORDER[point] as readonly TurnFeatureName[]).includes(name)) throw new Error(`the ${name} feature has a ${point} hook that TURN_HOOK_ORDER does not place`)
    }
  }
  for (const point of Object.keys(TURN_HOOK_ORDER) as TurnHookPoint[]) {
    for (const name of TURN_HOOK_ORDER[point]) {
      const handler = features[name]?.[point]
      if (handler) store.add(register(hooks, point, name, handler))
    }
  }
  return store
}

function register<P extends TurnHookPoint>(hooks: TurnHookRegistry, point: P, name: string, handler: TurnHookHandlers[P]): Disposable {
  return hooks.on(point, name, handler)
}
