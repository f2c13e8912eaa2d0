import { shell } from 'electron'
import type { UrlOpener } from '../core/app/url-opener'
import { isExternalWebLink } from './policy'

/** The OS browser, for http(s) only: a `file:`, `smb:` or custom-scheme link could run a program. */
export const electronUrlOpener: UrlOpener = {
  async open(url) {
    if (!isExternalWebLink(url.href)) throw new Error(`only http and https links are opened in the browser, not ${url.protocol}`)
    // The one call to the OS browser; the scanner's review note is answered by the check above.
    await shell.openExternal(url.href) /* eng-disable OPEN_EXTERNAL_JS_CHECK */
  },
}
