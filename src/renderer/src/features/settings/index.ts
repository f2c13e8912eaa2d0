export { SettingsPage } from './SettingsPage'
export { ProviderSetup } from './ProviderSetup'
export { openSettings, openKeySetup, closeSettings } from './settings-state'
