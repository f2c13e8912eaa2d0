import type { DomainHandlers } from '../router'

export const reviewHandlers: DomainHandlers<'review'> = {
  get: (range, { services }) => services.reviews.get(range),
  decide: (request, { services }) => services.reviews.decide(request),
  pending: ({ sessionId }, { services }) => services.reviews.pending(sessionId),
}
