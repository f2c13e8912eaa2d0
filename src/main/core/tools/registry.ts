import { z } from 'zod'
import { wildcardMatch } from '../permission/rule'
import type { ToolDefinition } from '../provider/types'
import { ToolErrorNames } from './errors'
import { errorResult, runTool, type RunToolOptions, type ToolResult } from './run-tool'
import type { Tool, ToolContext } from './tool'

/**
 * Built-in availability per agent, before the agent's `tools` config: subagents do
 * not spawn subagents or keep the user's todo list, and each plan tool belongs to
 * the mode it leaves.
 */
const AGENT_TOOL_DEFAULTS: Record<string, Record<string, boolean>> = {
  build: { plan_exit: false },
  plan: { plan_enter: false },
  general: { task: false, todowrite: false, plan_enter: false, plan_exit: false, question: false },
  explore: {
    task: false, todowrite: false, plan_enter: false, plan_exit: false, question: false,
    write: false, edit: false, multiedit: false, apply_patch: false,
  },
}

/** Custom agents get the build set without the plan tools. */
const CUSTOM_AGENT_DEFAULTS: Record<string, boolean> = { plan_enter: false, plan_exit: false }

function enabled(id: string, map: Record<string, boolean> | undefined, fallback: boolean): boolean {
  if (!map) return fallback
  // Last matching key wins, as with permission rules, so `{"*": false, "read": true}` works.
  let result = fallback
  for (const [pattern, on] of Object.entries(map)) if (wildcardMatch(id, pattern)) result = on
  return result
}

/** The tools a session may offer the model. Built-ins, custom and MCP tools all live here. */
export class ToolRegistry {
  private readonly tools = new Map<string, Tool>()

  constructor(tools: Iterable<Tool> = []) {
    for (const tool of tools) this.register(tool)
  }

  register(tool: Tool): void {
    if (!/^[a-zA-Z0-9_-]{1,64}$/.test(tool.id)) throw new Error(`invalid tool id "${tool.id}" (letters, digits, _ and -, ≤ 64)`)
    if (this.tools.has(tool.id)) throw new Error(`tool "${tool.id}" is registered twice`)
    this.tools.set(tool.id, tool)
  }

  unregister(id: string): boolean {
    return this.tools.delete(id)
  }

  get(id: string): Tool | undefined {
    return this.tools.get(id)
  }

  all(): Tool[] {
    return [...this.tools.values()]
  }

  /**
   * The tools of an agent: its built-in defaults and the `situation`'s (the model's edit family, whether anyone
   * can answer a question), then its `tools` config (`{ "bash": false, "mcp_*": false }`), which has the last word.
   */
  forAgent(agent: string, toolsConfig?: Record<string, boolean>, situation: Record<string, boolean> = {}): Tool[] {
    const defaults = { ...situation, ...(AGENT_TOOL_DEFAULTS[agent] ?? CUSTOM_AGENT_DEFAULTS) }
    return this.all().filter((tool) => enabled(tool.id, toolsConfig, enabled(tool.id, defaults, true)))
  }

  /** Provider tool definitions (name, description, JSON schema of the arguments). */
  definitions(tools: Tool[] = this.all()): ToolDefinition[] {
    return tools.map(toolDefinition)
  }

  /** Runs a call by tool name; an unknown name becomes a message listing the available tools. */
  async run(id: string, input: unknown, ctx: ToolContext, options?: RunToolOptions, available?: Tool[]): Promise<ToolResult> {
    const pool = available ?? this.all()
    const tool = pool.find((t) => t.id === id)
    if (!tool) {
      const names = pool.map((t) => t.id).join(', ')
      return errorResult(id, ToolErrorNames.UnknownTool, `There is no tool named "${id}". Available tools: ${names}.`)
    }
    return runTool(tool, input, ctx, options)
  }
}

/** One tool as the provider layer sends it. */
/** Tools are immutable data: each one's JSON schema is generated once, not for every request. */
const definitions = new WeakMap<Tool, ToolDefinition>()

const SAFE_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER])

/**
 * A schema without what zod writes for every integer (`minimum`/`maximum` at ±2^53): tokens the model
 * pays for on every request that say nothing.
 */
function compact(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(compact)
  if (typeof schema !== 'object' || schema === null) return schema
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(schema)) {
    if ((key === 'maximum' || key === 'minimum') && typeof value === 'number' && SAFE_BOUNDS.has(value)) continue
    out[key] = compact(value)
  }
  return out
}

export function toolDefinition(tool: Tool): ToolDefinition {
  const cached = definitions.get(tool)
  if (cached) return cached
  const schema = tool.inputSchema ?? (compact(z.toJSONSchema(tool.parameters, { io: 'input' })) as Record<string, unknown>)
  const { $schema: _drop, ...inputSchema } = schema
  const definition = { name: tool.id, description: tool.description, inputSchema }
  definitions.set(tool, definition)
  return definition
}
