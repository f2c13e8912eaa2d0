import { describe, expect, it } from 'vitest'
import { isAllowedPermission, isExternalWebLink } from '../../../src/main/electron/policy'
import { isTrustedSender } from '../../../src/main/ipc/sender'

describe('window security policy', () => {
  it('trusts only our origin, main frame', () => {
    expect(isTrustedSender({ frameUrl: 'app://hotaru/index.html', isMainFrame: true })).toBe(true)
    expect(isTrustedSender({ frameUrl: 'app://hotaru/index.html', isMainFrame: false })).toBe(false)
    expect(isTrustedSender({ frameUrl: 'app://evil/index.html', isMainFrame: true })).toBe(false)
    expect(isTrustedSender({ frameUrl: 'file:///index.html', isMainFrame: true })).toBe(false)
    expect(isTrustedSender({ frameUrl: null, isMainFrame: true })).toBe(false)
    expect(isTrustedSender({ frameUrl: 'not a url', isMainFrame: true })).toBe(false)
  })

  it('denies permissions by default and opens only web links externally', () => {
    for (const p of ['media', 'geolocation', 'notifications', 'openExternal', 'clipboard-read']) expect(isAllowedPermission(p)).toBe(false)
    expect(isExternalWebLink('https://example.com')).toBe(true)
    expect(isExternalWebLink('file:///etc/passwd')).toBe(false)
    expect(isExternalWebLink('javascript:alert(1)')).toBe(false)
  })
})
