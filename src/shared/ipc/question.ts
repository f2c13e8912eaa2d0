import { z } from 'zod'
import { ProjectId } from '../schema/project'
import { SessionId } from '../schema/session'
import type { DomainContract } from './define'

export const QuestionItem = z.object({
  question: z.string(),
  /** A short label for the UI (≤ 30 characters). */
  header: z.string().optional(),
  options: z.array(z.object({ label: z.string(), description: z.string().optional() })),
  /** Several options may be chosen. */
  multiple: z.boolean().optional(),
})

export const PendingQuestion = z.object({
  id: z.string(),
  sessionId: z.string(),
  projectId: z.string(),
  callId: z.string().optional(),
  questions: z.array(QuestionItem),
  createdAt: z.number(),
})
export type PendingQuestion = z.infer<typeof PendingQuestion>

export const questionContract = {
  methods: {
    pending: {
      input: z.object({ projectId: ProjectId.optional(), sessionId: SessionId.optional() }).strict(),
      output: z.array(PendingQuestion),
    },
    /** One answer per question: the chosen option labels, or the user's own text as one entry. */
    answer: {
      input: z.object({ id: z.string().min(1).max(100), answers: z.array(z.array(z.string().max(10_000))) }).strict(),
      output: z.object({ answered: z.boolean() }),
    },
    dismiss: { input: z.object({ id: z.string().min(1).max(100) }).strict(), output: z.object({ dismissed: z.boolean() }) },
  },
  events: {
    asked: z.object({ type: z.literal('asked'), question: PendingQuestion }),
    answered: z.object({ type: z.literal('answered'), id: z.string(), sessionId: z.string(), projectId: z.string(), rejected: z.boolean() }),
  },
  /** What its methods can fail with, besides the failures of any call (`CallErrors`). */
  errors: [
    'NotFound', 'QuestionDismissed', 'QuestionCancelled',
  ],
} satisfies DomainContract<'question'>
