import { create } from 'zustand'

export type SettingsSection = 'general' | 'models' | 'permissions' | 'mcp' | 'sandbox' | 'providers' | 'trust' | 'keys'

export const useSettingsDialog = create<{ open: boolean; section: SettingsSection }>(() => ({ open: false, section: 'general' }))

export function openSettings(section: SettingsSection = 'general'): void {
  useSettingsDialog.setState({ open: true, section })
}

export function closeSettings(): void {
  useSettingsDialog.setState({ open: false })
}
