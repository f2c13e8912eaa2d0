import type { Session } from '@shared/schema/session'
import type { ProviderRegistry, ProviderSettings } from '../../provider'
import type { SessionStore } from '../../session/store'
import { log } from '../../util/log'
import { generateTitle, titleFromMessage } from '../title'
import type { TurnFeature } from '../turn-features'

/**
 * A session's title: a readable one from the first message at once; the model's title replaces it after
 * the turn (requests made during the turn would compete with it). Model-written titles cost a request, so
 * they are opt-in through `smallModel`; they run in the background and the session is usable meanwhile.
 */
export class Titles {
  private readonly pending = new Set<Promise<void>>()

  constructor(
    private readonly store: SessionStore,
    private readonly providers: ProviderRegistry,
  ) {}

  feature(): TurnFeature {
    return {
      'turn.willStart': ({ session, prompt, firstTurn }) => {
        if (!firstTurn) return undefined
        const text = prompt.text || (prompt.images ?? []).map((image) => image.original.name).join(', ')
        return {
          stored: () => {
            this.store.update(session.id, { title: titleFromMessage(text) })
          },
        }
      },
      'turn.didEnd': ({ turn, result }) => {
        if (turn.firstTurn && result.status !== 'aborted' && turn.env.smallModel) this.start(turn.session, turn.prompt.text, turn.env.smallModel, turn.env.providerSettings)
      },
    }
  }

  /** Waits for background titles (the CLI does before it exits), at most `timeoutMs`. */
  async settle(timeoutMs: number): Promise<void> {
    const pending = Promise.allSettled([...this.pending])
    await Promise.race([pending, new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())])
  }

  private start(session: Session, text: string, smallModel: string, settings?: ProviderSettings): void {
    const task = generateTitle(this.providers, smallModel, text, AbortSignal.timeout(30_000), settings)
      .then((title) => {
        if (title && this.store.find(session.id)) this.store.update(session.id, { title })
      })
      .catch((error: unknown) => {
        // The message-derived title stays; nothing the user must act on.
        log.debug(`[agent] title for ${session.id} failed: ${(error as Error).message}`)
      })
      .finally(() => this.pending.delete(task))
    this.pending.add(task)
  }
}
