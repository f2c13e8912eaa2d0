import type { Effort } from '@shared/schema/effort'
import type { AgentConfig, Config } from '../config'
import buildPrompt from './prompts/build.txt?raw'
import explorePrompt from './prompts/explore.txt?raw'
import generalPrompt from './prompts/general.txt?raw'
import planPrompt from './prompts/plan.txt?raw'

export type AgentMode = 'primary' | 'subagent'

export interface AgentInfo {
  name: string
  description: string
  mode: AgentMode
  prompt: string
  /** `provider/model` override; otherwise the session's model. */
  model?: string
  /** Reasoning effort of this agent's requests, over the config's (a session's own choice wins). */
  effort?: Effort
  /** Tool ids switched on or off for this agent (absent = the tool's default). */
  tools: Record<string, boolean>
  /** Permission overrides from config (the permission engine adds its defaults). */
  permission?: AgentConfig['permission']
  maxTurns?: number
  /** Hidden agents (titles, compaction) are never offered to the user. */
  hidden?: boolean
  /** Only reads: used by the permission defaults. */
  readOnly: boolean
}

const EDIT_TOOLS = ['write', 'edit', 'multiedit', 'apply_patch']

export const BUILTIN_AGENTS: readonly AgentInfo[] = [
  {
    name: 'build',
    description: 'The default agent: reads, edits and runs commands in the project.',
    mode: 'primary',
    prompt: buildPrompt,
    tools: {},
    readOnly: false,
  },
  {
    name: 'plan',
    description: 'Investigates and writes a plan; does not change project files.',
    mode: 'primary',
    prompt: planPrompt,
    tools: {},
    readOnly: true,
  },
  {
    name: 'explore',
    description: 'Fast read-only search of the code base; use it to find files, symbols and facts.',
    mode: 'subagent',
    prompt: explorePrompt,
    tools: Object.fromEntries([...EDIT_TOOLS, 'task', 'todowrite'].map((t) => [t, false])),
    readOnly: true,
  },
  {
    name: 'general',
    description: 'General-purpose agent for self-contained multi-step tasks and research.',
    mode: 'subagent',
    prompt: generalPrompt,
    tools: { task: false },
    readOnly: false,
  },
]

export const DEFAULT_AGENT = 'build'

/** Built-in agents with config overrides applied, plus agents defined only in config. */
export function resolveAgents(config: Config): Map<string, AgentInfo> {
  const agents = new Map(BUILTIN_AGENTS.map((a) => [a.name, { ...a, tools: { ...a.tools } }]))
  for (const [name, override] of Object.entries(config.agent ?? {})) {
    const base = agents.get(name)
    agents.set(name, {
      name,
      description: override.description ?? base?.description ?? `Custom agent ${name}`,
      mode: override.mode ?? base?.mode ?? 'primary',
      prompt: override.prompt ?? base?.prompt ?? buildPrompt,
      model: override.model ?? base?.model,
      ...((override.effort ?? base?.effort) ? { effort: override.effort ?? base?.effort } : {}),
      tools: { ...base?.tools, ...override.tools },
      permission: override.permission ?? base?.permission,
      maxTurns: override.maxTurns ?? base?.maxTurns,
      readOnly: base?.readOnly ?? false,
    })
  }
  return agents
}
