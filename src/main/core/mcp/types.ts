import type { McpServerStatus } from '@shared/ipc/mcp'

/** One server's health, as the UI and `hotaru mcp list` show it: the wire type of `mcp.list`. */
export type { McpServerStatus }

export type McpServerState = McpServerStatus['state']

/** Where a server's definition came from. */
export type McpServerSource = McpServerStatus['source']

export type McpTransportKind = NonNullable<McpServerStatus['transport']>

/** One MCP tool as the agent sees it. */
export interface McpTool {
  /** `server__tool`, sanitized to `^[a-zA-Z0-9_-]{1,64}$` and unique across servers. */
  name: string
  description: string
  /** The server's JSON schema for the arguments (always `type: 'object'`). */
  inputSchema: Record<string, unknown>
  server: string
  /** The tool's name on its server. */
  tool: string
  /** Hints from the server (read-only, destructive…), for permission defaults and the UI. */
  annotations?: Record<string, unknown>
}

export interface McpTextContent {
  type: 'text'
  text: string
}

export interface McpImageContent {
  type: 'image'
  mediaType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp'
  data: string
}

export type McpContentPart = McpTextContent | McpImageContent

/** A tool call's outcome in the provider-neutral shape (`ToolResultPart.output`). */
export interface McpToolResult {
  output: string | McpContentPart[]
  isError: boolean
}

export interface McpResource {
  server: string
  uri: string
  name: string
  description?: string
  mimeType?: string
}

export interface McpResourceContents {
  uri: string
  mimeType?: string
  /** Text contents; absent for binary contents. */
  text?: string
  /** Base64 binary contents. */
  blob?: string
}

export interface McpPromptArgument {
  name: string
  description?: string
  required?: boolean
}

export interface McpPrompt {
  server: string
  name: string
  description?: string
  arguments: McpPromptArgument[]
}

export interface McpPromptMessage {
  role: 'user' | 'assistant'
  content: McpContentPart[]
}

export interface McpPromptResult {
  description?: string
  messages: McpPromptMessage[]
}

/** A listing across servers: one server's failure is reported, not fatal to the others. */
export interface McpListing<T> {
  items: T[]
  errors: Array<{ server: string; message: string }>
}

/** Where OAuth tokens and client registrations are kept (OS keychain in the app, a 0600 file elsewhere). */
export interface SecretStore {
  get(key: string): Promise<string | undefined>
  set(key: string, value: string): Promise<void>
  delete(key: string): Promise<void>
}
