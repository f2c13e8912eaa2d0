/**
 * Method and event names of every IPC domain, free of zod so the sandboxed
 * preload can build its named methods without bundling the schemas.
 * `contracts.test.ts` checks this list against the zod contracts.
 */
export const channels = {
  app: { methods: ['info'], events: [] },
  project: {
    methods: ['open', 'close', 'locate', 'completePath', 'list', 'recent', 'forget', 'pickFolder', 'notices', 'dismissNotices'],
    events: ['opened', 'closed', 'notice', 'presence'],
  },
  fs: {
    methods: ['list', 'read', 'write', 'create', 'rename', 'delete', 'gitStatus', 'reveal'],
    events: ['changed', 'gitStatus'],
  },
  pty: {
    methods: ['create', 'write', 'resize', 'kill', 'list', 'ack', 'replay'],
    events: ['data', 'exit'],
  },
  layout: { methods: ['get', 'set', 'getTabs', 'setTabs'], events: [] },
  session: {
    methods: ['create', 'list', 'get', 'messages', 'rename', 'delete', 'status', 'running', 'toolOutput', 'image'],
    events: ['updated', 'deleted', 'message', 'part', 'delta', 'partRemoved', 'truncated', 'status', 'todos'],
  },
  agent: { methods: ['prompt', 'abort', 'agents', 'models', 'compact'], events: ['turnEnded'] },
  permission: { methods: ['pending', 'reply', 'rules', 'setRule', 'approvals', 'revoke'], events: ['asked', 'replied'] },
  question: { methods: ['pending', 'answer', 'dismiss'], events: ['asked', 'answered'] },
  mcp: { methods: ['list', 'reload', 'saveServer', 'restart', 'enable', 'disable', 'authenticate', 'resources', 'readResource', 'prompts', 'getPrompt'], events: ['status', 'tools', 'warning'] },
  process: { methods: ['list', 'output', 'kill'], events: ['changed'] },
  settings: { methods: ['providers', 'setApiKey', 'secretStore', 'deleteApiKey', 'testConnection', 'localModels', 'defaults', 'setDefaults'], events: [] },
  search: { methods: ['files', 'text', 'cancel'], events: ['results', 'done'] },
  review: { methods: ['get', 'decide', 'pending'], events: [] },
  checkpoint: { methods: ['list', 'position', 'diff', 'file', 'preview', 'restore', 'fork', 'usage'], events: ['created'] },
  sandbox: { methods: ['status', 'setEnabled'], events: [] },
  lsp: { methods: ['status', 'diagnostics', 'open', 'restart', 'install'], events: ['status', 'diagnostics'] },
  trust: { methods: ['status', 'decide', 'list', 'revoke'], events: ['changed'] },
  worktree: { methods: ['list', 'create', 'open', 'diff', 'file', 'previewMerge', 'mergeFile', 'merge', 'remove'], events: ['changed'] },
  preview: { methods: ['start', 'status', 'stop', 'console', 'allowUrl', 'open', 'bounds', 'go', 'close'], events: ['status', 'console', 'navigated'] },
} as const

export type Channels = typeof channels
export type Domain = keyof Channels

export function methodChannel(domain: string, method: string): string {
  return `${domain}.${method}`
}

export function eventChannel(domain: string, event: string): string {
  return `${domain}:${event}`
}

/** `opened` → `onOpened`: the name under which an event subscription is exposed. */
export function eventListenerName(event: string): string {
  return `on${event.charAt(0).toUpperCase()}${event.slice(1)}`
}
