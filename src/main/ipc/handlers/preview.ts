import { ErrorNames, HotaruError } from '@shared/errors'
import { previewTarget } from '@shared/preview-url'
import type { Connection } from '../connection'
import type { PreviewSurface } from '../preview-surface'
import type { DomainHandlers } from '../router'

function surfaceOf(connection: Connection): PreviewSurface {
  if (connection.preview) return connection.preview
  throw new HotaruError(ErrorNames.Unsupported, { message: 'this client cannot show a preview' })
}

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
  open: async ({ projectId, url, typed }, { services, connection }) => {
    const preview = services.previews.for(services.projects.get(projectId))
    const surface = surfaceOf(connection)
    const allows = (candidate: string): boolean => preview.urls.allows(candidate)
    const target = previewTarget(url, allows, { typed: typed ?? false })
    if (target.kind === 'refused') throw new HotaruError(ErrorNames.InvalidPayload, { message: target.reason })
    if (target.kind === 'external') {
      if (!surface.openExternal) return { action: 'external' as const, url: target.url.href }
      // previewTarget let through only http(s) addresses off loopback; the desktop surface opens them with the url-opener.
      await surface.openExternal(target.url) /* eng-disable OPEN_EXTERNAL_JS_CHECK */
      return { action: 'opened' as const, url: target.url.href }
    }
    // What the user typed may be loaded from now on, by the pane and by the agent's browser alike.
    if (typed) preview.urls.allowTyped(target.url.href)
    const frameUrl = await surface.open(projectId, target.url, allows)
    return { action: 'load' as const, url: target.url.href, frameUrl }
  },
  bounds: ({ projectId, bounds }, { connection }) => {
    surfaceOf(connection).bounds(projectId, bounds)
    return {}
  },
  go: ({ projectId, action }, { connection }) => {
    surfaceOf(connection).go(projectId, action)
    return {}
  },
  close: ({ projectId }, { connection }) => {
    surfaceOf(connection).close(projectId)
    return {}
  },
}
