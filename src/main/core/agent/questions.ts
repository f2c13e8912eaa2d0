import { randomUUID } from 'node:crypto'
import { ErrorNames, HotaruError } from '@shared/errors'
import type { EventPayload } from '@shared/ipc'
import type { PendingQuestion } from '@shared/ipc/question'
import type { QuestionAnswer } from '../tools'
import { Emitter, type Subscription, type Listener } from '../util/emitter'
import { owned, type AttachContext } from '../attach'
import { DisposableStore, type Disposable } from '../util/disposable'

export type { PendingQuestion }

export type QuestionEvent = EventPayload<'question', 'asked'> | EventPayload<'question', 'answered'>

interface Waiting {
  info: PendingQuestion
  resolve(answers: QuestionAnswer[]): void
  reject(error: unknown): void
}

/**
 * Questions the agent asks the user (the `question` tool): pending until the UI
 * or the CLI answers, like permission asks.
 */
export class QuestionService {
  private readonly waiting = new Map<string, Waiting>()
  private readonly events = new Emitter<QuestionEvent>('question')
  /**
   * Whether anyone can answer: a window or a terminal. A one-shot run without a terminal cannot, and
   * then the `question` tool is not offered at all (the model would only get a refusal).
   */
  answerable = true

  /** How many listeners follow questions and answers. */
  get listenerCount(): number {
    return this.events.listenerCount
  }

  onEvent(listener: Listener<QuestionEvent>): Subscription {
    return this.events.on(listener)
  }

  /** Questions reach every client through the bus; a project's questions end with it. */
  attach({ bus, projects }: AttachContext): Disposable {
    const store = new DisposableStore()
    store.add(
      owned(
        this.onEvent((event) => {
          if (event.type === 'asked') bus.publish('question:asked', event, event.question.projectId)
          else bus.publish('question:answered', event, event.projectId)
        }),
      ),
    )
    store.add(
      owned(
        projects.onOpened((project) => {
          const { id } = project
          store.add(owned(project.track({ cancel: (reason) => this.cancelProject(id, reason) })))
        }),
      ),
    )
    return store
  }

  ask(input: Omit<PendingQuestion, 'id' | 'createdAt'>, signal?: AbortSignal): Promise<QuestionAnswer[]> {
    const info: PendingQuestion = { ...input, id: randomUUID(), createdAt: Date.now() }
    return new Promise((resolve, reject) => {
      const onAbort = (): void => this.settle(info.id, true, () => reject(signal?.reason ?? new Error('aborted')))
      signal?.addEventListener('abort', onAbort, { once: true })
      this.waiting.set(info.id, {
        info,
        resolve: (answers) => {
          signal?.removeEventListener('abort', onAbort)
          resolve(answers)
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort)
          reject(error)
        },
      })
      this.events.emit({ type: 'asked', question: info })
    })
  }

  pending(filter: { projectId?: string; sessionId?: string } = {}): PendingQuestion[] {
    return [...this.waiting.values()]
      .map((w) => w.info)
      .filter((q) => (!filter.projectId || q.projectId === filter.projectId) && (!filter.sessionId || q.sessionId === filter.sessionId))
  }

  answer(id: string, answers: QuestionAnswer[]): void {
    const waiting = this.require(id)
    if (answers.length !== waiting.info.questions.length) {
      throw new HotaruError(ErrorNames.InvalidPayload, {
        message: `expected ${waiting.info.questions.length} answer(s), got ${answers.length}`,
      })
    }
    this.settle(id, false, () => waiting.resolve(answers))
  }

  /** The user declined to answer; the tool tells the model so. */
  dismiss(id: string): void {
    const waiting = this.require(id)
    this.settle(id, true, () => waiting.reject(new HotaruError('QuestionDismissed', { message: 'the user dismissed the question' })))
  }

  /** The project closed: its pending questions end with that reason. */
  cancelProject(projectId: string, reason: string): void {
    for (const waiting of [...this.waiting.values()]) {
      if (waiting.info.projectId !== projectId) continue
      this.settle(waiting.info.id, true, () => waiting.reject(new HotaruError('QuestionCancelled', { message: reason })))
    }
  }

  private require(id: string): Waiting {
    const waiting = this.waiting.get(id)
    if (!waiting) throw new HotaruError(ErrorNames.NotFound, { message: `no pending question "${id}"` })
    return waiting
  }

  private settle(id: string, rejected: boolean, finish: () => void): void {
    const waiting = this.waiting.get(id)
    if (!waiting) return
    this.waiting.delete(id)
    finish()
    const { sessionId, projectId } = waiting.info
    this.events.emit({ type: 'answered', id, sessionId, projectId, rejected })
  }
}
