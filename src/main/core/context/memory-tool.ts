import { z } from 'zod'
import { ErrorNames, HotaruError } from '@shared/errors'
import { type MemoryConfig, readMemory, updateMemory } from './memory'
import description from './memory-tool.txt?raw'

/**
 * The `memory` tool without the tool layer: its id, description, zod parameters
 * and what it does. The tool layer wraps `runMemoryTool` (and asks for the edit
 * permission before `write`/`append`).
 */

export const MEMORY_TOOL_ID = 'memory'

export const memoryToolDescription: string = description

export const memoryToolParameters = z.object({
  action: z.enum(['read', 'write', 'append']).describe('read the memory, replace it whole, or add to its end'),
  content: z.string().optional().describe('write: the complete new memory; append: the text to add. Not used by read'),
})

export type MemoryToolArgs = z.infer<typeof memoryToolParameters>

export interface MemoryToolResult {
  title: string
  output: string
  metadata: { path: string; bytes: number; exists: boolean; action: MemoryToolArgs['action'] }
}

export async function runMemoryTool(root: string, config: MemoryConfig, args: MemoryToolArgs): Promise<MemoryToolResult> {
  if (args.action === 'read') {
    const memory = await readMemory(root, config)
    const bytes = Buffer.byteLength(memory.content, 'utf8')
    const output = memory.exists && memory.content.trim().length > 0 ? memory.content : `The memory (${memory.path}) is empty.`
    return { title: memory.path, output, metadata: { path: memory.path, bytes, exists: memory.exists, action: args.action } }
  }
  if (args.content === undefined || args.content.trim().length === 0) {
    throw new HotaruError(ErrorNames.InvalidPayload, { message: `memory ${args.action} needs non-empty content` })
  }
  const change = args.action === 'append' ? { append: args.content } : { content: args.content }
  const memory = await updateMemory(root, config, change)
  const bytes = Buffer.byteLength(memory.content, 'utf8')
  const verb = args.action === 'append' ? 'Added to' : 'Rewrote'
  return {
    title: memory.path,
    output: `${verb} ${memory.path} (${bytes} bytes now).`,
    metadata: { path: memory.path, bytes, exists: true, action: args.action },
  }
}
