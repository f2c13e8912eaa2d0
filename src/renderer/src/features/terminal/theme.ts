import type { ITheme } from '@xterm/xterm'
import { cssHexVar } from '../../lib/css-color'
import { isDarkTheme } from '../../lib/theme'

const cssVar = (name: string): string => cssHexVar(name, '')

const DARK_ANSI: Partial<ITheme> = {
  black: '#1e1e20',
  red: '#f07178',
  green: '#a5d86e',
  yellow: '#f0c674',
  blue: '#6cb6ff',
  magenta: '#d2a8ff',
  cyan: '#76e3ea',
  white: '#d0d0d4',
  brightBlack: '#6a6f78',
  brightRed: '#ff8f8f',
  brightGreen: '#c3e88d',
  brightYellow: '#ffd580',
  brightBlue: '#96ccff',
  brightMagenta: '#e2c5ff',
  brightCyan: '#a4f0f4',
  brightWhite: '#ffffff',
}

const LIGHT_ANSI: Partial<ITheme> = {
  black: '#1f2328',
  red: '#c62828',
  green: '#2e7d32',
  yellow: '#8a6100',
  blue: '#0b5cad',
  magenta: '#8e3fb5',
  cyan: '#0f7b8a',
  white: '#6a6f78',
  brightBlack: '#57606a',
  brightRed: '#d73a49',
  brightGreen: '#22863a',
  brightYellow: '#a36a00',
  brightBlue: '#005cc5',
  brightMagenta: '#a044d8',
  brightCyan: '#1b7c83',
  brightWhite: '#8c959f',
}

/** The terminal's colours follow the app's light or dark theme (Settings, or the OS). */
export function terminalTheme(): ITheme {
  const dark = isDarkTheme()
  return {
    ...(dark ? DARK_ANSI : LIGHT_ANSI),
    background: cssVar('--bg-panel') || cssVar('--bg') || (dark ? '#1e1e20' : '#ffffff'),
    foreground: cssVar('--fg') || (dark ? '#e3e3e6' : '#1f2328'),
    cursor: cssVar('--accent') || '#d9730d',
    cursorAccent: cssVar('--bg') || '#ffffff',
    selectionBackground: dark ? '#3a4a66' : '#b6cdf5',
  }
}
