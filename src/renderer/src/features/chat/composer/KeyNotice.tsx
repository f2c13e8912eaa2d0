import { background } from '../../../lib/background'
import { useEffect } from 'react'
import { useProject } from '../../../stores/project'
import { loadProviderKeys, missingKey, useProviderKeys } from '../../../stores/provider-keys'
import { useSettingsDialog } from '../../settings/settings-state'
import { NoKeyActions } from './LocalModels'

/** The model a new session would use when none is picked (the built-in default unless configured). */
const BUILT_IN_DEFAULT = 'anthropic/claude-sonnet-5-5'

/**
 * Before the first message fails: which provider needs a key for the picked
 * model, with "Add key" (the provider settings) and "Use a local model". Re-checked when settings close.
 */
export function KeyNotice({ model, sessionId }: { model: string; sessionId: string | null }) {
  const bridge = useProject((s) => s.bridge)
  const providers = useProviderKeys((s) => s.providers)
  const settingsOpen = useSettingsDialog((s) => s.open)
  useEffect(() => {
    if (!settingsOpen) background('loadProviderKeys', loadProviderKeys(bridge))
  }, [bridge, settingsOpen])
  const provider = missingKey(providers, model || BUILT_IN_DEFAULT)
  if (!provider) return null
  return (
    <div className="key-notice" role="status" data-testid="key-notice">
      <span>
        <strong>{provider.name}</strong> needs an API key for {model || 'the default model'}
        {provider.envKeys.length > 0 ? ` (or set ${provider.envKeys.join(' / ')})` : ''}.
      </span>
      <NoKeyActions sessionId={sessionId} providerId={provider.id} />
    </div>
  )
}
