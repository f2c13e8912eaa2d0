import { useChatController } from '../../../stores/chat'
import { useProject } from '../../../stores/project'
import { ProviderSetup } from '../../settings'

/** What to do without a key, in a chat: the model picked from a local runtime becomes this chat's model too. */
export function NoKeyActions({ sessionId, providerId }: { sessionId: string | null; providerId: string }) {
  const bridge = useProject((s) => s.bridge)
  const chat = useChatController()
  return <ProviderSetup bridge={bridge} providerId={providerId} onPick={(model) => chat.setChoice(sessionId, { model })} />
}
