import { create } from 'zustand'
import type { HotaruBridge } from '@shared/ipc'
import type { ProviderSetting } from '@shared/ipc/settings'

/** Which providers have a key (for the composer's "needs a key" notice and the model picker). */
export const useProviderKeys = create<{ providers: ProviderSetting[]; loaded: boolean }>(() => ({ providers: [], loaded: false }))

export async function loadProviderKeys(bridge: HotaruBridge): Promise<void> {
  const result = await bridge.settings.providers({})
  if (result.ok) useProviderKeys.setState({ providers: result.value, loaded: true })
  else console.warn('[settings] providers not listed:', result.error.data.message)
}

/** The provider of `provider/model` when it needs a key and has none; null when it is fine or unknown. */
export function missingKey(providers: readonly ProviderSetting[], model: string): ProviderSetting | null {
  const id = model.slice(0, model.indexOf('/'))
  const provider = providers.find((p) => p.id === id)
  return provider && provider.requiresKey && provider.keySource === 'none' ? provider : null
}
