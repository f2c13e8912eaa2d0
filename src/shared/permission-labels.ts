import type { PermissionLayer } from './schema/permission-rules'

export type Action = 'allow' | 'ask' | 'deny'

export interface PermissionLabel {
  label: string
  description: string
}

/**
 * Every permission the engine asks about, in plain words (for Settings and anything else a person reads), in the
 * order Settings lists them. The keys are the
 * permission names of the core (`permission/names.ts`, checked by a test) and `*`, the rule for everything else.
 */
export const PERMISSION_LABELS: Record<string, PermissionLabel> = {
  bash: { label: 'Running commands', description: 'Shell commands the agent runs in the project (patterns match the command line).' },
  edit: { label: 'Changing files', description: 'Creating, editing and deleting files (patterns match the file path).' },
  read: { label: 'Reading files', description: 'Opening a file to read it (patterns match the file path).' },
  list: { label: 'Listing folders', description: 'Looking at what a folder holds.' },
  glob: { label: 'Finding files by name', description: 'Searching the project for file names.' },
  grep: { label: 'Searching file contents', description: 'Searching the text of the project’s files.' },
  webfetch: { label: 'Opening web pages', description: 'Downloading a web page (patterns match the address).' },
  websearch: { label: 'Searching the web', description: 'A web search run by the model’s provider; you see each query first.' },
  task: { label: 'Starting helper agents', description: 'Handing part of the work to another agent.' },
  external_directory: { label: 'Files outside the project', description: 'Reading or changing anything outside the project folder.' },
  doom_loop: { label: 'Repeating the same tool call', description: 'The agent calling the same tool with the same input again and again.' },
  lsp: { label: 'Code intelligence', description: 'Looking up definitions, references and symbols through the language server.' },
  sandbox_network: { label: 'Network access from the sandbox', description: 'A sandboxed command reaching a site that is not on the allowed list.' },
  bash_unsandboxed: { label: 'Commands outside the sandbox', description: 'Running a command again without the sandbox after the sandbox blocked it.' },
  preview: { label: 'App preview', description: 'Starting the dev server and looking at or clicking through its page.' },
  '*': { label: 'Everything else', description: 'Any tool that no other rule covers.' },
}

/** A permission in plain words; a custom or MCP tool is named as the tool. */
export function permissionLabel(permission: string): PermissionLabel {
  const known = PERMISSION_LABELS[permission]
  if (known) return known
  const mcp = /^(.+?)__(.+)$/.exec(permission)
  if (mcp) return { label: `“${mcp[2]}” from ${mcp[1]}`, description: 'A tool of an MCP server; it asks first unless a rule says otherwise.' }
  return { label: `Tool “${permission}”`, description: 'A custom tool; it asks first unless a rule says otherwise.' }
}

/** Known permissions first, in the order above; others by name. */
export function comparePermissions(a: string, b: string): number {
  const order = Object.keys(PERMISSION_LABELS)
  const ia = order.indexOf(a)
  const ib = order.indexOf(b)
  if (ia >= 0 || ib >= 0) return (ia < 0 ? order.length : ia) - (ib < 0 ? order.length : ib)
  return a.localeCompare(b)
}

export const ACTION_LABELS: Record<Action, string> = { allow: 'Allow', ask: 'Ask first', deny: 'Block' }

export const LAYER_LABELS: Record<PermissionLayer, string> = {
  agent: 'Built in',
  tool: 'Built in (add-on tools)',
  user: 'Your settings',
  project: 'This project',
  env: 'Launch environment',
  managed: 'Your organization',
  'agent-file': 'Agent file',
}

/** What a rule's pattern matches, in words where the pattern is special. */
export function patternLabel(pattern: string): string {
  if (pattern === '*') return 'Anything'
  if (pattern === '@read-only') return 'Commands that only read'
  return pattern
}
