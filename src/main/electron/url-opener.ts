import { shell } from 'electron'
import type { UrlOpener } from '../core/app/url-opener'
import { isExternalWebLink } from './policy'

/** The OS browser, for http(s) only: a `file:`, `smb:` or custom-scheme link could run a program. */
export const electronUrlOpener: UrlOpener = {
  async openExternal(url) {
    if (!isExternalWebLink(url.href)) throw new Error(`only http and https links are opened in the browser, not ${url.protocol}`)
    await shell.openExternal(url.href)
  },
}
