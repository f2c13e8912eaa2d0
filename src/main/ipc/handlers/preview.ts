import type { DomainHandlers } from '../router'

export const previewHandlers: DomainHandlers<'preview'> = {
  start: ({ projectId, name }, { services }) => services.previews.for(services.projects.get(projectId)).start(name === undefined ? {} : { name }),
  status: ({ projectId }, { services }) => services.previews.for(services.projects.get(projectId)).status(),
  stop: ({ projectId }, { services }) => services.previews.for(services.projects.get(projectId)).stop(),
  console: ({ projectId, since }, { services }) => services.previews.for(services.projects.get(projectId)).console(since === undefined ? {} : { since }),
  allowUrl: ({ projectId, url, typed }, { services }) => {
    const preview = services.previews.for(services.projects.get(projectId))
    if (typed) preview.urls.allowTyped(url)
    return { allowed: preview.urls.allows(url) }
  },
}
