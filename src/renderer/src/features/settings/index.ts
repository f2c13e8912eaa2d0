export { SettingsDialog } from './SettingsDialog'
export { ProviderSetup } from './ProviderSetup'
export { openSettings, openKeySetup, closeSettings } from './settings-state'
import './settings.css'
