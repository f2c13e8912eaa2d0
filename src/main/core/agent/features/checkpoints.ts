import type { CheckpointService } from '../../checkpoint/service'
import { log } from '../../util/log'
import type { TurnFeature } from '../turn-features'
import type { ToolCall } from '../turn-hooks'

/**
 * Checkpoints of a turn: the message's checkpoint runs in the snapshot worker while the first request goes
 * out; a call that may change files starts only once the checkpoints before it are taken (or, when it says
 * which paths it will write, once their pre-images are kept); a step whose tools changed files gets its own;
 * the turn ends with its checkpoints recorded (a CLI run lists them right after).
 */
export function checkpointsFeature(checkpoints: CheckpointService): TurnFeature {
  return {
    'turn.willStart': ({ session, env, prompt }) => ({
      stored: (message) => track(checkpoints.beforeMessage(session, message.id, env.config, prompt.text)),
    }),
    'tool.willRun': async ({ turn, call, ctx }) => {
      if (!mutates({ turn, call, ctx })) return undefined
      const projectId = turn.session.projectId
      const writes = await turn.env.tools.plannedWrites?.(call, ctx.agent)
      await (writes ? checkpoints.beforeWrite(projectId, writes) : checkpoints.idle(projectId))
      return undefined
    },
    // A checkpoint failure not told yet: the model knows its change has no restore point.
    'tool.didRun': (call) => {
      const untold = mutates(call) ? checkpoints.takeUntold(call.turn.session.id) : undefined
      return untold ? { append: untold } : undefined
    },
    'step.didEnd': ({ turn, message, changes, next }) => {
      track(checkpoints.afterStep(turn.session, message.id, changes, turn.env.config))
      // Before the language servers' last reports are awaited (they come after this hook).
      if (next !== 'step') checkpoints.turnEnding(turn.session.projectId, turn.session.parentId === null)
      return undefined
    },
    // A one-shot run's message walk still running now is stopped instead of awaited (see `finishTurn`).
    'turn.didEnd': ({ turn }) => checkpoints.finishTurn(turn.session.projectId, turn.session.parentId === null),
  }
}

function mutates({ turn, call, ctx }: ToolCall): boolean {
  return turn.env.tools.mutatesFiles?.(call.name, ctx.agent) ?? true
}

/** Checkpoint work runs beside the turn: its failure is logged (and told to the model by `takeUntold`). */
function track(work: Promise<unknown>): void {
  work.catch((error: unknown) => log.warn(`[checkpoint] ${(error as Error).message}`))
}
