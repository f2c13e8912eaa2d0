import { useState } from 'react'
import { setThemePreference, themePreference, type ThemePreference } from '../../lib/theme'

const THEMES: { value: ThemePreference; label: string }[] = [
  { value: 'system', label: 'Follow the system' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
]

/** The colour theme, kept on this computer. */
export function Appearance() {
  const [theme, setTheme] = useState<ThemePreference>(themePreference)
  const choose = (value: ThemePreference): void => {
    setTheme(value)
    setThemePreference(value)
  }
  return (
    <div className="settings-item" role="radiogroup" aria-label="Theme">
      <div className="settings-item-head">
        <span className="settings-item-label">Theme</span>
        <span className="muted">How the app looks; “Follow the system” switches with your computer’s light or dark mode.</span>
      </div>
      <div className="settings-choices">
        {THEMES.map(({ value, label }) => (
          <label key={value} className="settings-radio">
            <input type="radio" name="theme" value={value} checked={theme === value} onChange={() => choose(value)} data-testid={`theme-${value}`} />
            {label}
          </label>
        ))}
      </div>
    </div>
  )
}
