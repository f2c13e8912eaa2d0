import { useChat, useChatController, useCheckpoints } from '../../stores/chat'
import { Icon } from '../../components/Icon'

/**
 * "Restore to here" on a user message: the project as it was before that message, through the
 * same preview and confirmation as the timeline. Shown where the message has a checkpoint and no turn runs; it
 * appears on hover and is a tab stop of the message like any button (keyboard users reach it).
 */
export function RestoreToHere({ sessionId, messageId }: { sessionId: string; messageId: string }) {
  const chat = useChatController()
  const checkpointId = useCheckpoints((s) => s.bySession[sessionId]?.find((c) => c.trigger === 'message' && c.messageId === messageId)?.id)
  const busy = useChat((s) => (s.statuses[sessionId]?.type ?? 'idle') !== 'idle')
  // A restore waits for no turn (the core refuses one while the agent runs): offered when idle.
  if (!checkpointId || busy) return null
  return (
    <button
      type="button"
      className="small ghost msg-restore"
      onClick={() => chat.checkpoints.openRestore(checkpointId)}
      title="Restore the files (and, if you choose, the conversation) to how they were before this message"
      data-testid="restore-to-here"
    >
      <Icon name="history" /> Restore to here
    </button>
  )
}
