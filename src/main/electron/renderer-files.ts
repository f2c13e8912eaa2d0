import { statSync } from 'node:fs'
import { join, normalize, sep } from 'node:path'
import { APP_HOST } from '../ipc/sender'

export type RendererFile = { status: 200; file: string } | { status: 400 | 403 | 404; reason: string }

/**
 * The file of the built renderer an `app://hotaru/…` URL names. Only files under
 * `rendererDir` are served: another host, a path that climbs out (`%2e%2e`,
 * encoded slashes), a NUL byte or a directory is refused, a missing file is a 404.
 */
export function rendererFile(rendererDir: string, requestUrl: string): RendererFile {
  const root = normalize(rendererDir + sep)
  const url = new URL(requestUrl)
  if (url.host !== APP_HOST) return { status: 403, reason: `unknown host ${url.host}` }
  let pathname: string
  try {
    pathname = decodeURIComponent(url.pathname)
  } catch {
    return { status: 400, reason: 'malformed path' }
  }
  if (pathname.includes('\0')) return { status: 400, reason: 'malformed path' }
  const file = normalize(join(root, pathname === '/' ? 'index.html' : pathname))
  if (!file.startsWith(root)) return { status: 403, reason: 'outside the app' }
  if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return { status: 404, reason: 'not found' }
  return { status: 200, file }
}
