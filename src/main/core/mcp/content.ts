import type { ContentBlock, EmbeddedResource } from '@modelcontextprotocol/sdk/types.js'
import type { McpContentPart, McpImageContent, McpToolResult } from './types'

const IMAGE_TYPES = new Set<string>(['image/png', 'image/jpeg', 'image/gif', 'image/webp'])

/** What a `tools/call` answer may hold (current results, and `toolResult` from 2024-10-07 servers). */
export interface RawToolResult {
  content?: ContentBlock[]
  structuredContent?: Record<string, unknown>
  isError?: boolean
  toolResult?: unknown
}

/**
 * MCP content blocks → provider-neutral parts. Images models can take pass through;
 * everything the model cannot take (audio, other image types, binary resources)
 * becomes a short note, so the model knows something was there.
 */
export function toContentParts(blocks: readonly ContentBlock[]): McpContentPart[] {
  const parts: McpContentPart[] = []
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        parts.push({ type: 'text', text: block.text })
        break
      case 'image':
        parts.push(imageOrNote(block.mimeType, block.data, 'image'))
        break
      case 'audio':
        parts.push({ type: 'text', text: `[audio (${block.mimeType}) omitted: audio is not passed to the model]` })
        break
      case 'resource':
        parts.push(embeddedResource(block.resource))
        break
      case 'resource_link':
        parts.push({ type: 'text', text: `[resource ${block.name}: ${block.uri}${block.mimeType ? ` (${block.mimeType})` : ''}]` })
        break
    }
  }
  return parts
}

/**
 * A tool result as the agent sends it: a plain string when it is all text (what
 * every provider takes), parts when it carries images. Structured content is the
 * answer itself when the server sent no text for it.
 */
export function toToolResult(result: RawToolResult): McpToolResult {
  const isError = result.isError === true
  let parts = result.content ? toContentParts(result.content) : []
  if (!parts.some((part) => part.type === 'text') && result.structuredContent !== undefined) {
    parts = [{ type: 'text', text: JSON.stringify(result.structuredContent, null, 2) }, ...parts]
  }
  if (parts.length === 0 && result.toolResult !== undefined) {
    parts = [{ type: 'text', text: typeof result.toolResult === 'string' ? result.toolResult : JSON.stringify(result.toolResult, null, 2) }]
  }
  if (parts.length === 0) return { output: isError ? 'the tool failed without saying why' : '(no output)', isError }
  if (parts.every((part) => part.type === 'text')) {
    return { output: parts.map((part) => (part as { text: string }).text).join('\n'), isError }
  }
  return { output: parts, isError }
}

function embeddedResource(resource: EmbeddedResource['resource']): McpContentPart {
  if ('text' in resource) return { type: 'text', text: `[resource ${resource.uri}]\n${resource.text}` }
  if (resource.mimeType && IMAGE_TYPES.has(resource.mimeType)) return imageOrNote(resource.mimeType, resource.blob, 'resource')
  const bytes = Math.floor((resource.blob.length * 3) / 4)
  return { type: 'text', text: `[binary resource ${resource.uri} (${resource.mimeType ?? 'unknown type'}, about ${bytes} bytes) omitted]` }
}

function imageOrNote(mimeType: string, data: string, what: string): McpContentPart {
  if (IMAGE_TYPES.has(mimeType)) return { type: 'image', mediaType: mimeType as McpImageContent['mediaType'], data }
  return { type: 'text', text: `[${what} of type ${mimeType} omitted: models take only PNG, JPEG, GIF and WebP]` }
}
