import type { DomainHandlers } from '../router'

export const searchHandlers: DomainHandlers<'search'> = {
  files: ({ projectId }, { services }) => services.search.files(projectId),
  text: ({ projectId, searchId, query }, { services }) => {
    services.search.start(projectId, searchId, query)
    return { started: true }
  },
  cancel: ({ searchId }, { services }) => ({ cancelled: services.search.cancel(searchId) }),
}
