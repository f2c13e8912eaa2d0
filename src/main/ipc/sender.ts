/** The origin the desktop app serves its renderer from (see electron/protocol.ts). */
export const APP_SCHEME = 'app'
export const APP_HOST = 'hotaru'
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`

export interface SenderFacts {
  /** URL of the frame that sent the message; null when the frame is gone. */
  frameUrl: string | null
  isMainFrame: boolean
}

/**
 * Only our own page's main frame may call into main: not an iframe, not a page
 * that navigated elsewhere, not a frame that is being torn down.
 */
export function isTrustedSender(sender: SenderFacts, allowedOrigins: readonly string[] = [APP_ORIGIN]): boolean {
  if (!sender.isMainFrame || !sender.frameUrl) return false
  let origin: string
  try {
    const url = new URL(sender.frameUrl)
    origin = `${url.protocol}//${url.host}`
  } catch {
    return false
  }
  return allowedOrigins.includes(origin)
}
