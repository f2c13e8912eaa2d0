/**
 * Security decisions of the Electron shell kept free of Electron imports so they
 * are tested in Node.
 */

/** Permission requests from the renderer (camera, geolocation, notifications…) are denied unless listed. */
export const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set(['clipboard-sanitized-write'])

export function isAllowedPermission(permission: string): boolean {
  return ALLOWED_PERMISSIONS.has(permission)
}

/** Links the user clicks may open in the OS browser only when they are plain web links. */
export function isExternalWebLink(url: string): boolean {
  try {
    const { protocol } = new URL(url)
    return protocol === 'https:' || protocol === 'http:'
  } catch {
    return false
  }
}
