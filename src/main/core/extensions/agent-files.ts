import { EffortSchema, type Effort } from '@shared/schema/effort'
import { restrictAgentOverride } from '../config/restricted-layer'
import { readFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { z } from 'zod'
import type { AgentInfo, AgentMode } from '../agent/agents'
import { DOT_HOTARU_DIR } from '../config/locations'
import { AgentModeSchema, ModelRefSchema, PermissionConfigSchema, type PermissionConfig } from '../config/schema'
import { parseFrontmatter, stringField, type FrontmatterValue } from './frontmatter'
import { listDir } from './scan'
import { errorMessage, type ExtensionError } from './types'

const AGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/
/** `color` is accepted and unused: files written for other agents' pickers carry it, and it changes nothing here. */
const KNOWN_KEYS = ['name', 'description', 'model', 'effort', 'mode', 'tools', 'permission', 'maxTurns', 'color']
const ToolsMapSchema = z.record(z.string(), z.boolean())

/** What an agent file sets; anything left out keeps the value of the agent it overrides (or the default). */
export interface AgentOverride {
  description?: string
  model?: string
  effort?: Effort
  mode?: AgentMode
  tools?: Record<string, boolean>
  permission?: PermissionConfig
  maxTurns?: number
}

export interface AgentFile {
  /** The file name without `.md`. */
  name: string
  file: string
  scope: 'project' | 'global'
  /** The body of the file: the agent's system prompt. */
  prompt: string
  override: AgentOverride
}

export interface AgentFileDiscovery {
  /** In the order to apply them: the user's (global) files first, the project's last, so the project wins. */
  agents: AgentFile[]
  errors: ExtensionError[]
}

function issues(error: z.ZodError): string {
  return error.issues.map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ')
}

function parseJson(key: string, text: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new Error(`\`${key}\` is not valid JSON (${errorMessage(error)})`, { cause: error })
  }
}

/**
 * `tools` as a map (`{bash: false}`, JSON, or indented `name: true|false` lines), or a
 * list of the only tools allowed (`read, grep, glob`, a YAML/JSON list). A list becomes
 * `{"*": false, "read": true, …}`: the registry applies the last matching key.
 */
export function parseToolsField(value: FrontmatterValue): Record<string, boolean> {
  let candidate: unknown
  if (Array.isArray(value) || (typeof value === 'string' && value.trim().startsWith('['))) {
    const names = typeof value === 'string' ? parseJson('tools', value) : value
    const list = z.array(z.string().min(1)).safeParse(names)
    if (!list.success) throw new Error(`\`tools\` list: ${issues(list.error)}`)
    candidate = { '*': false, ...Object.fromEntries(list.data.map((n) => [n, true])) }
  } else if (typeof value !== 'string') {
    candidate = Object.fromEntries(
      Object.entries(value).map(([k, v]) => {
        if (v !== 'true' && v !== 'false') throw new Error(`\`tools.${k}\` must be true or false, not ${JSON.stringify(v)}`)
        return [k, v === 'true']
      }),
    )
  } else if (value.trim().startsWith('{')) {
    candidate = parseJson('tools', value)
  } else {
    candidate = { '*': false, ...Object.fromEntries(value.split(',').map((s) => s.trim()).filter(Boolean).map((n) => [n, true])) }
  }
  const parsed = ToolsMapSchema.safeParse(candidate)
  if (!parsed.success) throw new Error(`\`tools\`: ${issues(parsed.error)}`)
  return parsed.data
}

/** `permission` as a map (YAML or JSON): `tool: allow|ask|deny`, or per tool a map of patterns. */
export function parsePermissionField(value: FrontmatterValue): PermissionConfig {
  const candidate = typeof value === 'string' ? parseJson('permission', value) : value
  const parsed = PermissionConfigSchema.safeParse(candidate)
  if (!parsed.success) throw new Error(`\`permission\`: ${issues(parsed.error)}`)
  return parsed.data
}

function checked<T>(key: string, schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value)
  if (!parsed.success) throw new Error(`\`${key}\`: ${issues(parsed.error)}`)
  return parsed.data
}

/** Reads one agent file; throws with a message for the user when it is not valid. */
export function parseAgentFile(name: string, text: string): { prompt: string; override: AgentOverride; notice?: string } {
  if (!AGENT_NAME.test(name)) throw new Error(`"${name}" is not a usable agent name: use letters, digits, _ and -, at most 64 characters`)
  const { data, body, notice } = parseFrontmatter(text)
  const unknown = Object.keys(data).filter((k) => !KNOWN_KEYS.includes(k))
  if (unknown.length > 0) throw new Error(`unknown key(s) ${unknown.map((k) => `\`${k}\``).join(', ')}; known keys: ${KNOWN_KEYS.join(', ')}`)
  const declared = stringField(data, 'name')
  if (declared !== undefined && declared !== name) {
    throw new Error(`\`name: ${declared}\` differs from the file name: the agent is named after its file ("${name}")`)
  }
  const override: AgentOverride = {}
  const description = stringField(data, 'description')
  if (description !== undefined) override.description = description
  const model = stringField(data, 'model')
  if (model !== undefined) override.model = checked('model', ModelRefSchema, model)
  const effort = stringField(data, 'effort')
  if (effort !== undefined) override.effort = checked('effort', EffortSchema, effort)
  const mode = stringField(data, 'mode')
  if (mode !== undefined) override.mode = checked('mode', AgentModeSchema, mode)
  const maxTurns = stringField(data, 'maxTurns')
  if (maxTurns !== undefined) {
    if (!/^\d+$/.test(maxTurns) || Number(maxTurns) < 1) throw new Error(`\`maxTurns\` must be a positive whole number, not "${maxTurns}"`)
    override.maxTurns = Number(maxTurns)
  }
  if (data.tools !== undefined) override.tools = parseToolsField(data.tools)
  if (data.permission !== undefined) override.permission = parsePermissionField(data.permission)
  const prompt = body.trim()
  if (prompt === '') throw new Error('the file has no body: the text after the frontmatter is the agent\'s system prompt')
  return { prompt, override, ...(notice ? { notice } : {}) }
}

/** Agent files from `<globalConfigDir>/agents/*.md` and `<project>/.hotaru/agents/*.md`. */
export async function loadAgentFiles(locations: {
  projectRoot: string
  globalConfigDir: string
  /** The folder is not trusted: its agent files get no `allow` rule and switch no tool on. */
  restrictProject?: boolean
}): Promise<AgentFileDiscovery> {
  const errors: ExtensionError[] = []
  const agents: AgentFile[] = []
  const dirs = [
    { dir: join(locations.globalConfigDir, 'agents'), scope: 'global' as const },
    { dir: join(locations.projectRoot, DOT_HOTARU_DIR, 'agents'), scope: 'project' as const },
  ]
  for (const { dir, scope } of dirs) {
    for (const entry of await listDir(dir, errors)) {
      if (entry.isDirectory || !entry.name.endsWith('.md')) continue
      const name = basename(entry.name, '.md')
      try {
        const { notice, ...parsed } = parseAgentFile(name, await readFile(entry.path, 'utf8'))
        if (notice) errors.push({ file: entry.path, error: notice, used: true })
        if (scope === 'project' && locations.restrictProject) restrictAgentOverride(parsed.override, `agent file ${entry.name}`, entry.path, [])
        agents.push({ name, file: entry.path, scope, ...parsed })
      } catch (error) {
        errors.push({ file: entry.path, error: errorMessage(error) })
      }
    }
  }
  return { agents, errors }
}

/** `base` with `over` applied, `over`'s keys last: rule order matters ("last matching key wins"). */
function orderedMerge<V>(base: Record<string, V> | undefined, over: Record<string, V>): Record<string, V> {
  const kept = Object.entries(base ?? {}).filter(([k]) => !Object.hasOwn(over, k))
  return { ...Object.fromEntries(kept), ...over }
}

/** The agent a file defines, over `base` when it overrides an existing agent (built-in or from config). */
export function agentFromFile(file: AgentFile, base?: AgentInfo): AgentInfo {
  const o = file.override
  const permission = o.permission ? (orderedMerge(base?.permission, o.permission) as PermissionConfig) : base?.permission
  return {
    name: file.name,
    description: o.description ?? base?.description ?? `Custom agent ${file.name}`,
    mode: o.mode ?? base?.mode ?? 'primary',
    prompt: file.prompt,
    model: o.model ?? base?.model,
    ...((o.effort ?? base?.effort) ? { effort: o.effort ?? base?.effort } : {}),
    tools: o.tools ? orderedMerge(base?.tools, o.tools) : { ...base?.tools },
    permission,
    maxTurns: o.maxTurns ?? base?.maxTurns,
    ...(base?.hidden ? { hidden: true } : {}),
    readOnly: base?.readOnly ?? false,
  }
}

/** Adds the file agents to `agents`, or overrides those of the same name, in order. Mutates and returns `agents`. */
export function mergeAgentFiles(agents: Map<string, AgentInfo>, files: readonly AgentFile[]): Map<string, AgentInfo> {
  for (const file of files) agents.set(file.name, agentFromFile(file, agents.get(file.name)))
  return agents
}

/**
 * The subagents the `task` tool can run, for the system prompt: the tool's own
 * description only names the built-in ones, and agent files add more. Empty when
 * there are none.
 */
export function subagentsPromptBlock(agents: Iterable<AgentInfo>): string {
  const listed = [...agents].filter((a) => a.mode === 'subagent' && !a.hidden)
  if (listed.length === 0) return ''
  return [
    '<subagents>',
    'Agents the `task` tool can run (`subagent_type`):',
    ...listed.map((a) => `- ${a.name}: ${a.description.replace(/\s+/g, ' ').trim()}`),
    '</subagents>',
  ].join('\n')
}
