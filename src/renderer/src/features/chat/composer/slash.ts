import type { ChatController } from '../../../stores/chat'
import { promptDialog } from '../../dialogs'
import { openSettings } from '../../settings'
import { background } from '../../../lib/background'

export interface SlashCommand {
  name: string
  description: string
  run(chat: ChatController, args: string): void | Promise<void>
}

async function rename(chat: ChatController, args: string): Promise<void> {
  const id = chat.store.getState().activeSessionId
  if (!id) return
  const title = args.trim() || (await promptDialog({ title: 'Rename session', initial: chat.store.getState().sessions[id]?.title ?? '', confirmLabel: 'Rename' }))
  if (title) await chat.renameSession(id, title)
}

/** The `/` commands of the chat input. */
export const SLASH_COMMANDS: SlashCommand[] = [
  { name: 'new', description: 'Start a new session', run: (chat) => background('chat.newSession', chat.newSession()) },
  { name: 'clear', description: 'Start over in a fresh session (this one stays in the list)', run: (chat) => background('chat.newSession', chat.newSession()) },
  { name: 'compact', description: 'Summarize the conversation to free context', run: (chat) => chat.compact() },
  { name: 'rename', description: 'Rename this session', run: rename },
  { name: 'sessions', description: 'Show all sessions', run: (chat) => chat.setShowSessions(true) },
  { name: 'stop', description: 'Stop the running turn', run: (chat) => chat.abort() },
  { name: 'settings', description: 'Open settings (models, permissions, MCP servers, appearance)', run: () => openSettings() },
]

/** `/name args` → the command and its arguments, when the text is one. */
export function parseSlash(text: string): { command: SlashCommand; args: string } | null {
  const match = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim())
  if (!match) return null
  const command = SLASH_COMMANDS.find((c) => c.name === match[1])
  return command ? { command, args: match[2] ?? '' } : null
}
