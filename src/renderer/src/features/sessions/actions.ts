import type { ChatController } from '../../stores/chat'
import { confirmDialog, promptDialog } from '../dialogs'

export async function renameSessionDialog(chat: ChatController, sessionId: string): Promise<void> {
  const current = chat.store.getState().sessions[sessionId]?.title ?? ''
  const title = await promptDialog({ title: 'Rename session', initial: current, confirmLabel: 'Rename', validate: (v) => (v.trim().length > 200 ? 'At most 200 characters' : null) })
  if (title && title !== current) await chat.renameSession(sessionId, title)
}

export async function confirmDeleteSession(chat: ChatController, sessionId: string): Promise<void> {
  const title = chat.store.getState().sessions[sessionId]?.title ?? 'this session'
  const ok = await confirmDialog({
    title: 'Delete session',
    message: `Delete “${title}” and its messages? This cannot be undone.`,
    confirmLabel: 'Delete',
    danger: true,
  })
  if (ok) await chat.deleteSession(sessionId)
}
