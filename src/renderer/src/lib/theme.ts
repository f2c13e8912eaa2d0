/**
 * Light, dark or "follow the OS". The choice is a `data-theme` attribute on the
 * root element (styles.css keys its variables on it); Monaco and xterm, which
 * paint with their own colours, ask `isDarkTheme()` and listen for changes.
 */
export type ThemePreference = 'system' | 'light' | 'dark'

const KEY = 'hotaru.theme'
const media = (): MediaQueryList => matchMedia('(prefers-color-scheme: dark)')
const listeners = new Set<() => void>()

export function themePreference(): ThemePreference {
  const saved = localStorage.getItem(KEY)
  return saved === 'light' || saved === 'dark' ? saved : 'system'
}

export function isDarkTheme(): boolean {
  const preference = themePreference()
  return preference === 'system' ? media().matches : preference === 'dark'
}

function notify(): void {
  for (const listener of [...listeners]) listener()
}

/** Applies and remembers the user's choice. */
export function setThemePreference(preference: ThemePreference): void {
  if (preference === 'system') localStorage.removeItem(KEY)
  else localStorage.setItem(KEY, preference)
  applyTheme()
  notify()
}

export function applyTheme(): void {
  const root = document.documentElement
  root.dataset.theme = isDarkTheme() ? 'dark' : 'light'
  root.style.colorScheme = root.dataset.theme
}

/** Called when the effective theme may have changed (user choice or OS switch). */
export function onThemeChange(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

let installed = false

/** Sets the theme before the first paint and follows the OS while the choice is "system". */
export function installTheme(): void {
  applyTheme()
  if (installed) return
  installed = true
  media().addEventListener('change', () => {
    if (themePreference() !== 'system') return
    applyTheme()
    notify()
  })
}
