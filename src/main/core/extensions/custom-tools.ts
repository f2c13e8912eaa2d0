import { basename, join } from 'node:path'
import { DOT_HOTARU_DIR } from '../config/locations'
import { MEMORY_TOOL_ID } from '../context'
import type { Rule } from '../permission'
import { builtinTools, defineTool, ToolError, type Tool, type ToolContext, type ToolOutput, type ToolProgress } from '../tools'
import { importToolFile } from './custom-tool-import'
import { adaptParameters } from './custom-tool-schema'
import { listDir } from './scan'
import { SKILL_TOOL_ID } from './skill-tool'
import { errorMessage, type ExtensionError } from './types'

const TOOL_FILE = /\.(?:ts|js|mjs)$/
const MAX_ID = 64

/** What a custom tool's `execute` gets: the call's identity and abort signal, not the app's internals. */
export interface CustomToolContext {
  /** The project root (the folder the tool should work in). */
  root: string
  sessionId: string
  messageId: string
  callId: string
  agent: string
  signal: AbortSignal
  /** Reports progress to the UI while the tool runs. */
  metadata(progress: ToolProgress): void
}

export interface CustomToolSource {
  id: string
  file: string
  /** `default` or the named export. */
  exportName: string
  scope: 'project' | 'global'
}

export interface CustomToolsResult {
  /** Ready for the tool registry; each asks permission `<id>` before it runs. */
  tools: Tool[]
  /** Where each tool of `tools` comes from, in the same order. */
  sources: CustomToolSource[]
  errors: ExtensionError[]
}

export interface CustomToolsOptions {
  projectRoot: string
  globalConfigDir: string
  /** Ids custom tools may not take; default: the built-in tools, `memory` and `skill`. */
  reservedIds?: Iterable<string>
  /** Import `<project>/.hotaru/tools` too; false while the folder is not trusted (nothing of it is imported). */
  projectTools?: boolean
}

interface ToolDefinitionExport {
  description: unknown
  execute: unknown
  parameters?: unknown
  args?: unknown
  /** `false` declares a read-only tool (no checkpoint work after its calls). */
  mutatesFiles?: unknown
}

/** Ids in the form providers accept: other characters become `_`, cut at 64. */
export function sanitizeToolId(raw: string): string {
  return raw.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, MAX_ID)
}

export function defaultReservedIds(): Set<string> {
  return new Set([...builtinTools({ rg: null }).map((t) => t.id), MEMORY_TOOL_ID, SKILL_TOOL_ID])
}

/** Rules that make every custom tool ask by default, placed after the agent defaults (which allow unknown permissions). */
export function customToolRules(tools: readonly Pick<Tool, 'id'>[]): Rule[] {
  return tools.map((t) => ({ permission: t.id, pattern: '*', action: 'ask' }))
}

function isCandidate(value: unknown): value is ToolDefinitionExport {
  return value !== null && typeof value === 'object' && 'execute' in value
}

/** The result of a custom `execute`: a string, or `{ output, title?, metadata? }`. */
function toOutput(id: string, value: unknown): ToolOutput {
  if (typeof value === 'string') return { title: id, output: value, metadata: {} }
  if (value !== null && typeof value === 'object' && typeof (value as { output?: unknown }).output === 'string') {
    const { output, title, metadata } = value as { output: string; title?: unknown; metadata?: unknown }
    return {
      title: typeof title === 'string' && title !== '' ? title : id,
      output,
      metadata: metadata !== null && typeof metadata === 'object' && !Array.isArray(metadata) ? (metadata as Record<string, unknown>) : {},
    }
  }
  const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value
  throw new ToolError(`The custom tool "${id}" returned ${kind}; a custom tool must return a string or { output: string }. Tell the user its file needs fixing.`)
}

function customContext(ctx: ToolContext): CustomToolContext {
  return {
    root: ctx.root,
    sessionId: ctx.sessionId,
    messageId: ctx.messageId,
    callId: ctx.callId,
    agent: ctx.agent,
    signal: ctx.signal,
    metadata: (progress) => ctx.metadata(progress),
  }
}

/** Turns one export into a tool; throws with a message for the user when the definition is not usable. */
export function toCustomTool(id: string, def: ToolDefinitionExport, file: string): Tool {
  if (typeof def.description !== 'string' || def.description.trim() === '') throw new Error('`description` must be a non-empty string')
  if (typeof def.execute !== 'function') throw new Error('`execute` must be a function')
  if (def.parameters !== undefined && def.args !== undefined) throw new Error('give `parameters` or `args`, not both')
  const { parameters, inputSchema } = adaptParameters(def.parameters ?? def.args)
  const run = def.execute as (args: unknown, ctx: CustomToolContext) => unknown
  return defineTool({
    id,
    description: def.description,
    parameters,
    inputSchema,
    // A tool file may declare `mutatesFiles: false`; otherwise its calls may change anything.
    ...(def.mutatesFiles === false ? { mutatesFiles: false } : {}),
    async execute(args, ctx) {
      await ctx.ask({ permission: id, patterns: ['*'], always: ['*'], title: `Run custom tool ${id}`, metadata: { tool: id, file, input: args } })
      return toOutput(id, await run.call(def, args, customContext(ctx)))
    },
  })
}

/** The tools one file exports: the default export is `<file>`, a named one `<file>_<name>`. */
export function toolsOfModule(file: string, module: Record<string, unknown>): { tools: Array<{ tool: Tool; exportName: string }>; errors: ExtensionError[] } {
  const stem = basename(file).replace(TOOL_FILE, '')
  const tools: Array<{ tool: Tool; exportName: string }> = []
  const errors: ExtensionError[] = []
  const seen = new Set<unknown>()
  // The default first, so `export default foo` plus `export const foo` yields one tool named after the file.
  const names = Object.keys(module).sort((a, b) => (a === 'default' ? -1 : b === 'default' ? 1 : 0))
  for (const exportName of names) {
    const value = module[exportName]
    if (!isCandidate(value) || seen.has(value)) continue
    seen.add(value)
    const id = sanitizeToolId(exportName === 'default' ? stem : `${stem}_${exportName}`)
    try {
      if (id === '') throw new Error('the file name gives an empty tool id')
      tools.push({ tool: toCustomTool(id, value, file), exportName })
    } catch (error) {
      errors.push({ file, error: `export "${exportName}" (tool "${id}"): ${errorMessage(error)}` })
    }
  }
  if (tools.length === 0 && errors.length === 0) {
    errors.push({ file, error: 'the file exports no tool (an object with `description` and `execute`, as the default or a named export)' })
  }
  return { tools, errors }
}

/**
 * Loads `.hotaru/tools/*.{ts,js,mjs}` of the project and `<globalConfigDir>/tools/`.
 * A project tool replaces a user tool of the same id; a broken file, a broken
 * export, a clash with a built-in tool or a duplicate id within one folder set is
 * reported in `errors` and left out.
 */
export async function loadCustomTools(options: CustomToolsOptions): Promise<CustomToolsResult> {
  const reserved = new Set(options.reservedIds ?? defaultReservedIds())
  const errors: ExtensionError[] = []
  const byId = new Map<string, { tool: Tool; source: CustomToolSource }>()
  const dirs = [
    { dir: join(options.globalConfigDir, 'tools'), scope: 'global' as const },
    ...(options.projectTools === false ? [] : [{ dir: join(options.projectRoot, DOT_HOTARU_DIR, 'tools'), scope: 'project' as const }]),
  ]
  for (const { dir, scope } of dirs) {
    const inScope = new Set<string>()
    for (const entry of await listDir(dir, errors)) {
      if (entry.isDirectory || !TOOL_FILE.test(entry.name) || entry.name.endsWith('.d.ts')) continue
      let module: Record<string, unknown>
      try {
        module = await importToolFile(entry.path)
      } catch (error) {
        errors.push({ file: entry.path, error: `cannot load: ${errorMessage(error)}` })
        continue
      }
      const found = toolsOfModule(entry.path, module)
      errors.push(...found.errors)
      for (const { tool, exportName } of found.tools) {
        if (reserved.has(tool.id)) {
          errors.push({ file: entry.path, error: `tool "${tool.id}" has the id of a built-in tool; rename the file or the export` })
        } else if (inScope.has(tool.id)) {
          errors.push({ file: entry.path, error: `tool "${tool.id}" is defined twice (${byId.get(tool.id)?.source.file})` })
        } else {
          inScope.add(tool.id)
          byId.set(tool.id, { tool, source: { id: tool.id, file: entry.path, exportName, scope } })
        }
      }
    }
  }
  const loaded = [...byId.values()]
  return { tools: loaded.map((l) => l.tool), sources: loaded.map((l) => l.source), errors }
}
