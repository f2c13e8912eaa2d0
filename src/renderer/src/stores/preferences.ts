import { create } from 'zustand'
import type { HotaruBridge } from '@shared/ipc'

/**
 * The user's defaults for new sessions, kept in the user's config file
 * (`model`, `defaultAgent`) through the `settings` IPC, so the app, `serve`
 * and the CLI share them. Loaded when the connection opens.
 */
export interface Preferences {
  /** `provider/model`; unset = the configured default. */
  defaultModel?: string
  defaultAgent?: string
  /** The file they are written to (shown in settings). */
  file?: string
  error?: string
}

export const usePreferences = create<Preferences>(() => ({}))

function fromDefaults(d: { model: string | null; defaultAgent: string | null; file: string }): Preferences {
  return { ...(d.model ? { defaultModel: d.model } : {}), ...(d.defaultAgent ? { defaultAgent: d.defaultAgent } : {}), file: d.file }
}

export async function loadPreferences(bridge: HotaruBridge): Promise<void> {
  const result = await bridge.settings.defaults({})
  if (result.ok) usePreferences.setState(fromDefaults(result.value), true)
  else usePreferences.setState({ ...usePreferences.getState(), error: result.error.data.message })
}

export async function setPreferences(bridge: HotaruBridge, patch: { defaultModel?: string | null; defaultAgent?: string | null }): Promise<void> {
  const result = await bridge.settings.setDefaults({
    ...(patch.defaultModel !== undefined ? { model: patch.defaultModel } : {}),
    ...(patch.defaultAgent !== undefined ? { defaultAgent: patch.defaultAgent } : {}),
  })
  if (result.ok) usePreferences.setState(fromDefaults(result.value), true)
  else usePreferences.setState({ ...usePreferences.getState(), error: result.error.data.message })
}
