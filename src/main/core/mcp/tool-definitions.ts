import type { ToolDefinition } from '../provider/types'
import type { McpManager } from './manager'

/** The connected servers' tools as provider tool definitions (the server's JSON schema as is). */
export function mcpToolDefinitions(manager: Pick<McpManager, 'listTools'>): ToolDefinition[] {
  return manager.listTools().map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }))
}
