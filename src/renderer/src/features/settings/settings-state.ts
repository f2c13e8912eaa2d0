import { create } from 'zustand'

export type SettingsSection = 'general' | 'models' | 'permissions' | 'mcp' | 'sandbox' | 'providers' | 'trust' | 'keys'

/** `keyFor`: the provider whose API key field takes the focus when the providers section opens. */
export const useSettingsDialog = create<{ open: boolean; section: SettingsSection; keyFor?: string }>(() => ({ open: false, section: 'general' }))

export function openSettings(section: SettingsSection = 'general', options: { keyFor?: string } = {}): void {
  useSettingsDialog.setState({ open: true, section, keyFor: options.keyFor })
}

/** Settings on the providers section, the cursor in `providerId`'s API key field. */
export function openKeySetup(providerId: string): void {
  openSettings('providers', { keyFor: providerId })
}

export function closeSettings(): void {
  useSettingsDialog.setState({ open: false })
}
