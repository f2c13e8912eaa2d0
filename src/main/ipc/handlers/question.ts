import type { DomainHandlers } from '../router'

export const questionHandlers: DomainHandlers<'question'> = {
  pending: (filter, { services }) => services.questions.pending(filter),
  answer: ({ id, answers }, { services }) => {
    services.questions.answer(id, answers)
    return { answered: true }
  },
  dismiss: ({ id }, { services }) => {
    services.questions.dismiss(id)
    return { dismissed: true }
  },
}
