export { SettingsDialog } from './SettingsDialog'
export { openSettings, closeSettings } from './settings-state'
import './settings.css'
