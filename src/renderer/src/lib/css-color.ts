/**
 * A CSS variable of the app as #rrggbb: the CSS minifier shortens #ffffff to
 * #fff, which Monaco rejects and xterm mis-reads. Anything that is not a hex
 * colour gives `fallback`.
 */
export function cssHexVar(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim()
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(value)
  if (short) return `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`
  return /^#[0-9a-f]{6}([0-9a-f]{2})?$/i.test(value) ? value : fallback
}
