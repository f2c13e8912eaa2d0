import type { HookEventName, HookFailure, PartOf } from '@shared/schema/session'
import { runHooks } from '../../extensions'
import type { SessionStore } from '../../session/store'
import { log } from '../../util/log'
import type { TurnFeature } from '../turn-features'
import type { TurnInfo } from '../turn-hooks'

/**
 * The user's hook commands (`hooks` in the config): `UserPromptSubmit` may refuse the message, `SessionStart`
 * runs on a session's first message, `PreToolUse` may refuse a call, `PostToolUse` may object to its result
 * (the model reads why), `Stop` is reported, not obeyed (continuing because a hook objects could loop forever).
 * A failed hook command is shown on the message or the call it ran for.
 */
export function userHooksFeature(store: SessionStore): TurnFeature {
  return {
    'turn.willStart': async (turn) => {
      const { env, session, signal } = turn
      const submitted = await runHooks(env.config?.hooks, 'UserPromptSubmit', { ...payloadOf(turn), prompt: turn.prompt.text }, { ...optionsOf(turn), signal })
      if (submitted.blocked) {
        report(submitted.failures)
        return { refuse: `a UserPromptSubmit hook refused the message: ${submitted.reason ?? ''}`.trim() }
      }
      const started = turn.firstTurn ? (await runHooks(env.config?.hooks, 'SessionStart', payloadOf(turn), { ...optionsOf(turn), signal })).failures : []
      return {
        stored: (message) => {
          record(store, session.id, message.id, 'UserPromptSubmit', submitted.failures)
          record(store, session.id, message.id, 'SessionStart', started)
        },
      }
    },
    'tool.willRun': async ({ turn, call, ctx }) => {
      const pre = await runHooks(turn.env.config?.hooks, 'PreToolUse', { ...payloadOf(turn), tool: call.name, input: call.input }, { ...optionsOf(turn), signal: ctx.signal })
      const hookFailures = pre.failures.map((f) => ({ ...f, event: 'PreToolUse' }))
      if (pre.blocked) {
        return {
          veto: {
            output: `A PreToolUse hook blocked this call: ${pre.reason ?? '(no reason given)'}`,
            title: call.name,
            metadata: { blockedByHook: true, hookFailures },
            isError: true,
          },
        }
      }
      return hookFailures.length > 0 ? { metadata: { hookFailures } } : undefined
    },
    'tool.didRun': async ({ turn, call, ctx, outcome }) => {
      const payload = { ...payloadOf(turn), tool: call.name, input: call.input, output: outcome.output }
      const post = await runHooks(turn.env.config?.hooks, 'PostToolUse', payload, { ...optionsOf(turn), signal: ctx.signal })
      const earlier = Array.isArray(outcome.metadata?.hookFailures) ? (outcome.metadata.hookFailures as unknown[]) : []
      const failures = post.failures.map((f) => ({ ...f, event: 'PostToolUse' }))
      return {
        ...(post.blocked ? { append: `A PostToolUse hook objected: ${post.reason ?? ''}` } : {}),
        ...(failures.length > 0 ? { metadata: { hookFailures: [...earlier, ...failures] } } : {}),
      }
    },
    'turn.didEnd': async ({ turn, messageId, result }) => {
      // Without the turn's signal: a stopped turn still tells its Stop hooks.
      const stopped = await runHooks(turn.env.config?.hooks, 'Stop', payloadOf(turn), optionsOf(turn))
      record(store, turn.session.id, result.lastMessage?.id ?? messageId, 'Stop', stopped.failures)
    },
  }
}

function payloadOf(turn: TurnInfo): { sessionId: string; projectRoot: string } {
  return { sessionId: turn.session.id, projectRoot: turn.env.projectRoot }
}

function optionsOf(turn: TurnInfo): Parameters<typeof runHooks>[3] {
  return { cwd: turn.env.projectRoot, sandbox: turn.env.sandbox, env: { ...process.env, ...turn.env.commandEnv } }
}

/** Failed hooks are shown on the message they ran for (a `hook` part), and logged. */
function record(store: SessionStore, sessionId: string, messageId: string, event: HookEventName, failures: HookFailure[]): void {
  if (failures.length === 0) return
  report(failures)
  store.addPart<PartOf<'hook'>>({ sessionId, messageId, type: 'hook', event, failures })
}

function report(failures: HookFailure[]): void {
  for (const failure of failures) log.warn(`[hooks] ${failure.command}: ${failure.error}`)
}
