import { setThemePreference } from '../../lib/theme'
import { activeChat } from '../../stores/chat'
import { existingProjectStore } from '../../stores/project'
import { useWorkspace } from '../../stores/workspace'
import { registerCommands } from '../commands'
import { confirmDeleteSession, renameSessionDialog } from '../sessions'
import { openSettings } from '../settings'
import { showWorktreeView } from '../worktrees'
import { addContextChip } from '../../stores/chat-context'
import { focusedSelection } from '../../stores/editor-selection'

function showPanel(): void {
  const id = useWorkspace.getState().activeId
  if (id) existingProjectStore(id)?.getState().setView({ right: true })
}

function focusInActive(selector: string): void {
  showPanel()
  requestAnimationFrame(() => document.querySelector<HTMLElement>(`.project:not([hidden]) ${selector}`)?.focus())
}

const hasChat = (): boolean => activeChat() !== undefined
const hasSession = (): boolean => activeChat()?.store.getState().activeSessionId != null
const isBusy = (): boolean => {
  const chat = activeChat()
  const id = chat?.store.getState().activeSessionId
  return !!chat && !!id && chat.isBusy(id)
}

/** The agent's actions in the command palette, with shortcuts. */
export function installChatCommands(): () => void {
  return registerCommands([
    {
      id: 'agent.focus',
      category: 'Agent',
      title: 'Focus Chat Input (with the Editor’s Selection Attached)',
      keys: 'Mod+L',
      when: hasChat,
      run: () => {
        // From the editor with text selected, the selection goes with the next message as a file:lines chip.
        const focused = focusedSelection()
        const chat = activeChat()
        if (focused && chat) addContextChip(chat.projectId, { kind: 'selection', ...focused.selection, state: 'ready' })
        focusInActive('[data-testid="chat-input"]')
      },
    },
    {
      id: 'agent.inlineEdit',
      category: 'Agent',
      title: 'Edit the Editor’s Selection with the Agent…',
      keys: 'Mod+K',
      // Only with text selected in the editor: otherwise Ctrl+K stays Monaco's chord key.
      when: () => hasChat() && focusedSelection() !== null,
      run: () => focusedSelection()?.source.inlineEdit(),
    },
    {
      id: 'agent.new',
      category: 'Agent',
      title: 'New Session',
      keys: 'Mod+Alt+T',
      when: hasChat,
      run: async () => {
        showPanel()
        await activeChat()?.newSession()
        focusInActive('[data-testid="chat-input"]')
      },
    },
    {
      id: 'agent.newWorktree',
      category: 'Agent',
      title: 'New Session in a New Worktree…',
      when: hasChat,
      run: () => {
        showPanel()
        const id = useWorkspace.getState().activeId
        if (id) showWorktreeView({ kind: 'create', tabId: id })
      },
    },
    {
      id: 'agent.sessions',
      category: 'Agent',
      title: 'Show Sessions',
      keys: 'Mod+Alt+H',
      when: hasChat,
      run: () => {
        activeChat()?.setShowSessions(true)
        focusInActive('[data-testid="session-search"]')
      },
    },
    { id: 'agent.stop', category: 'Agent', title: 'Stop the Running Turn', when: isBusy, run: () => activeChat()?.abort() },
    { id: 'agent.compact', category: 'Agent', title: 'Compact Conversation', when: hasSession, run: () => activeChat()?.compact() },
    {
      id: 'agent.rename',
      category: 'Agent',
      title: 'Rename Session…',
      when: hasSession,
      run: () => {
        const chat = activeChat()
        const id = chat?.store.getState().activeSessionId
        return chat && id ? renameSessionDialog(chat, id) : undefined
      },
    },
    {
      id: 'agent.delete',
      category: 'Agent',
      title: 'Delete Session…',
      when: hasSession,
      run: () => {
        const chat = activeChat()
        const id = chat?.store.getState().activeSessionId
        return chat && id ? confirmDeleteSession(chat, id) : undefined
      },
    },
    {
      id: 'agent.permission',
      category: 'Agent',
      title: 'Focus Permission Request',
      keys: 'Mod+Alt+A',
      when: () => (activeChat()?.store.getState().permissions.length ?? 0) > 0,
      run: () => focusInActive('[data-testid="permission-dialog"]'),
    },
    { id: 'settings.open', category: 'Preferences', title: 'Open Settings', keys: 'Mod+,', run: () => openSettings() },
    { id: 'settings.model', category: 'Preferences', title: 'Default Model and Agent', run: () => openSettings('models') },
    { id: 'settings.mcp', category: 'Preferences', title: 'MCP Servers', run: () => openSettings('mcp') },
    { id: 'theme.system', category: 'Preferences', title: 'Theme: Follow the System', run: () => setThemePreference('system') },
    { id: 'theme.light', category: 'Preferences', title: 'Theme: Light', run: () => setThemePreference('light') },
    { id: 'theme.dark', category: 'Preferences', title: 'Theme: Dark', run: () => setThemePreference('dark') },
  ])
}
