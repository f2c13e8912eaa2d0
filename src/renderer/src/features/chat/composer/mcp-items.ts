import fuzzysort from 'fuzzysort'
import type { MethodOutput } from '@shared/ipc'
import type { Suggestion } from '../../../components/SuggestList'

export type McpResource = MethodOutput<'mcp', 'resources'>['items'][number]
export type McpPrompt = MethodOutput<'mcp', 'prompts'>['items'][number]
export type McpContents = MethodOutput<'mcp', 'readResource'>
export interface McpListError {
  server: string
  message: string
}

/** Suggestion ids of MCP items start with these, so they never collide with file paths or command names. */
const RESOURCE = 'mcp-resource:'
const PROMPT = 'mcp-prompt:'

/** `server:name` — how resources and prompts are shown and typed. */
export const mcpLabel = (item: { server: string; name: string }): string => `${item.server}:${item.name}`

function matching<T extends { server: string; name: string }>(items: readonly T[], query: string): T[] {
  if (!query) return [...items]
  return fuzzysort.go(query, items, { key: mcpLabel, threshold: 0.3 }).map((r) => r.obj)
}

export function resourceSuggestions(items: readonly McpResource[], query: string): Suggestion[] {
  return matching(items, query).map((r) => ({ id: `${RESOURCE}${items.indexOf(r)}`, label: `@${mcpLabel(r)}`, detail: r.description ?? r.uri }))
}

export function promptSuggestions(items: readonly McpPrompt[], query: string): Suggestion[] {
  return matching(items, query).map((p) => ({ id: `${PROMPT}${items.indexOf(p)}`, label: `/${mcpLabel(p)}`, detail: p.description ?? 'MCP prompt' }))
}

/** The resource or prompt a suggestion stands for, if it is one. */
export function pickedResource(items: readonly McpResource[], id: string): McpResource | undefined {
  return id.startsWith(RESOURCE) ? items[Number(id.slice(RESOURCE.length))] : undefined
}

export function pickedPrompt(items: readonly McpPrompt[], id: string): McpPrompt | undefined {
  return id.startsWith(PROMPT) ? items[Number(id.slice(PROMPT.length))] : undefined
}

/** One line per server whose list failed, to show under the suggestions. */
export function listErrors(errors: readonly McpListError[]): string[] {
  return errors.map((e) => `${e.server}: ${e.message}`)
}

/**
 * A read resource as a block of the message: its text parts, binary parts named
 * by type and size (the model gets text only).
 */
export function resourceBlock(resource: McpResource, contents: McpContents): string {
  const body = contents
    .map((c) => (c.text !== undefined ? c.text : `[binary ${c.mimeType ?? 'content'} of ${Math.floor(((c.blob?.length ?? 0) * 3) / 4)} bytes at ${c.uri}]`))
    .join('\n')
  return `<resource name="${mcpLabel(resource)}" uri="${resource.uri}">\n${body}\n</resource>`
}

/** The message sent: the typed text, then the attached resources. */
export function withAttachments(text: string, blocks: readonly string[]): string {
  return blocks.length ? `${text}\n\n${blocks.join('\n\n')}` : text
}

/** Required arguments left empty, by name. */
export function missingArguments(prompt: McpPrompt, values: Readonly<Record<string, string>>): string[] {
  return prompt.arguments.filter((a) => a.required && !values[a.name]?.trim()).map((a) => a.name)
}
