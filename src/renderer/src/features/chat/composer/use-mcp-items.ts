import { useCallback, useRef, useState } from 'react'
import type { HotaruBridge, IpcResult } from '@shared/ipc'
import { background } from '../../../lib/background'
import { listErrors, mcpLabel, resourceBlock, type McpListError, type McpPrompt, type McpResource } from './mcp-items'

/** A resource picked with `@`: read once, its text sent with the message. */
export interface Attachment {
  key: number
  label: string
  state: 'reading' | 'ready' | 'failed'
  block?: string
  error?: string
}

/** A prompt with arguments waiting for them in the inline form. */
export interface PromptAsk {
  prompt: McpPrompt
  error?: string
  rendering?: boolean
}

let nextKey = 1

/**
 * The connected MCP servers' resources and prompts for the composer: listed when a
 * menu opens (failures per server kept to show), resources read into attachments,
 * prompts rendered into text.
 */
export function useMcpItems(bridge: HotaruBridge, projectId: string) {
  const [resources, setResources] = useState<McpResource[]>([])
  const [prompts, setPrompts] = useState<McpPrompt[]>([])
  const [errors, setErrors] = useState<string[]>([])
  const [attachments, setAttachments] = useState<Attachment[]>([])
  const [ask, setAsk] = useState<PromptAsk | null>(null)
  const listing = useRef(0)

  const refresh = useCallback(
    (kind: 'mention' | 'slash'): void => {
      const run = ++listing.current
      const settle = (result: IpcResult<{ errors: McpListError[] }>): boolean => {
        if (run !== listing.current) return false
        setErrors(result.ok ? listErrors(result.value.errors) : [`MCP: ${result.error.data.message}`])
        return result.ok
      }
      const load = async (): Promise<void> => {
        if (kind === 'mention') {
          const result = await bridge.mcp.resources({ projectId })
          if (settle(result) && result.ok) setResources(result.value.items)
        } else {
          const result = await bridge.mcp.prompts({ projectId })
          if (settle(result) && result.ok) setPrompts(result.value.items)
        }
      }
      background('mcp.list', load())
    },
    [bridge, projectId],
  )

  const attach = (resource: McpResource): void => {
    const key = nextKey++
    const label = mcpLabel(resource)
    const update = (patch: Partial<Attachment>): void => setAttachments((all) => all.map((a) => (a.key === key ? { ...a, ...patch } : a)))
    setAttachments((all) => [...all, { key, label, state: 'reading' }])
    const read = async (): Promise<void> => {
      const result = await bridge.mcp.readResource({ projectId, server: resource.server, uri: resource.uri })
      if (result.ok) update({ state: 'ready', block: resourceBlock(resource, result.value) })
      else update({ state: 'failed', error: result.error.data.message })
    }
    background('mcp.readResource', read())
  }

  const detach = (key: number): void => setAttachments((all) => all.filter((a) => a.key !== key))

  /** Renders the prompt; `insert` gets its text. Failures stay in the form (opened for them if needed). */
  const render = (prompt: McpPrompt, args: Record<string, string>, insert: (text: string) => void): void => {
    setAsk(prompt.arguments.length ? { prompt, rendering: true } : null)
    const run = async (): Promise<void> => {
      const result = await bridge.mcp.getPrompt({ projectId, server: prompt.server, name: prompt.name, args })
      if (result.ok) {
        setAsk(null)
        insert(result.value.text)
      } else setAsk({ prompt, error: result.error.data.message })
    }
    background('mcp.getPrompt', run())
  }

  return { resources, prompts, errors, refresh, attachments, attach, detach, clearAttachments: () => setAttachments([]), ask, setAsk, render }
}
