import type { IconName } from '../../components/Icon'
import { PERMISSION_LABELS } from '@shared/permission-labels'
import type { SettingsSection } from './settings-state'

export interface SectionInfo {
  id: SettingsSection
  label: string
  icon: IconName
}

export const SECTIONS: SectionInfo[] = [
  { id: 'general', label: 'Appearance', icon: 'symbol-color' },
  { id: 'models', label: 'Model & agent', icon: 'sparkle' },
  { id: 'permissions', label: 'Permissions', icon: 'shield' },
  { id: 'sandbox', label: 'Sandbox', icon: 'lock' },
  { id: 'mcp', label: 'MCP servers', icon: 'plug' },
  { id: 'providers', label: 'Providers', icon: 'key' },
  { id: 'trust', label: 'Workspace trust', icon: 'workspace-trusted' },
  { id: 'keys', label: 'Shortcuts', icon: 'keyboard' },
]

/** One thing search can find: what the page shows (label, description) and the names behind it (config keys). */
export interface SettingEntry {
  section: SettingsSection
  label: string
  description?: string
  keys?: readonly string[]
}

const ENTRIES: SettingEntry[] = [
  { section: 'general', label: 'Theme', description: 'Follow the system, light or dark', keys: ['appearance', 'dark mode', 'light mode', 'colors'] },
  { section: 'models', label: 'Default model', description: 'The model new sessions start with', keys: ['model'] },
  { section: 'models', label: 'Default agent', description: 'The agent new sessions start with (build, plan…)', keys: ['defaultAgent'] },
  ...Object.entries(PERMISSION_LABELS).map(([key, { label, description }]) => ({ section: 'permissions' as const, label, description, keys: [key] })),
  { section: 'permissions', label: 'Add a rule', description: 'Allow, ask first or block', keys: ['permission', 'allow', 'ask', 'deny', 'rule'] },
  { section: 'permissions', label: 'Remembered approvals', description: '“Always” answers to permission questions', keys: ['approvals', 'revoke'] },
  {
    section: 'sandbox',
    label: 'Run commands in a sandbox',
    description: 'Keep the agent’s commands inside the project, away from your secrets, with limited network access',
    keys: ['sandbox.enabled', 'bubblewrap', 'seatbelt', 'sandbox-exec', 'network', 'isolation'],
  },
  { section: 'mcp', label: 'MCP servers', description: 'Tools from Model Context Protocol servers', keys: ['mcp', '.mcp.json'] },
  { section: 'mcp', label: 'Add a server', description: 'Run a local MCP server with the project' },
  {
    section: 'providers',
    label: 'API keys',
    description: 'Where each provider’s key comes from; store a key in the app, test the connection',
    keys: ['apiKey', 'provider', 'Anthropic', 'OpenAI', 'Gemini', 'OpenRouter', 'Ollama', 'LM Studio', 'local model'],
  },
  { section: 'trust', label: 'Workspace trust', description: 'Trusted folders may run their own tools, hooks and MCP servers', keys: ['trust', 'restricted mode', 'untrusted'] },
  { section: 'keys', label: 'Keyboard shortcuts', keys: ['keybindings', 'shortcuts'] },
]

/** Every word of the query appears somewhere in the texts (case-insensitive). */
export function matchesQuery(query: string, texts: readonly (string | undefined)[]): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  if (words.length === 0) return true
  const haystack = texts.filter(Boolean).join('\n').toLowerCase()
  return words.every((word) => haystack.includes(word))
}

/** The texts of an entry that search looks at. */
export function entryTexts(entry: SettingEntry): string[] {
  return [entry.label, entry.description ?? '', ...(entry.keys ?? [])]
}

/**
 * The sections with something that matches, in page order: a section matches by its own name or by one of its
 * entries (`extra`: entries only known at run time, such as the shortcuts' commands).
 */
export function sectionsMatching(query: string, extra: readonly SettingEntry[] = []): SectionInfo[] {
  if (!query.trim()) return SECTIONS
  const entries = [...ENTRIES, ...extra]
  return SECTIONS.filter((section) => matchesQuery(query, [section.label]) || entries.some((entry) => entry.section === section.id && matchesQuery(query, entryTexts(entry))))
}

/** Whether a section's own name matches: then it is shown whole, not filtered down to what matched. */
export function sectionNameMatches(query: string, section: SettingsSection): boolean {
  const info = SECTIONS.find((s) => s.id === section)
  return info ? matchesQuery(query, [info.label]) : false
}
