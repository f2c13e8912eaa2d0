import type { Session } from '@shared/schema/session'
import { globalConfigDir, loadConfig, type Config, type ConfigEnv } from '../config'
import { resolveHomeDir } from '../config/locations'
import { memoryBlock } from '../context'
import type { EventBus } from '../bus/bus'
import {
  createSkillTool,
  customToolRules,
  discoverSkills,
  loadAgentFiles,
  loadCustomTools,
  mergeAgentFiles,
  skillsPromptBlock,
  subagentsPromptBlock,
  type ExtensionError,
} from '../extensions'
import type { ProjectManager } from '../project/manager'
import type { ProviderRegistry } from '../provider'
import { log } from '../util/log'
import { detached } from '../util/detached'
import { resolveAgents } from './agents'
import type { McpRuntime } from './mcp-runtime'
import type { ToolRuntimes, TurnHooks } from './project-tools'
import type { TurnEnvironment } from './service'
import { buildSystemPrompt } from './system-prompt'

/** How long a turn waits for MCP servers still starting before it sends its first request without them. */
export const MCP_START_GRACE_MS = 1_000

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref())
}

export interface EnvironmentOptions {
  projects: ProjectManager
  providers: ProviderRegistry
  tools: ToolRuntimes
  mcp?: McpRuntime
  bus?: EventBus
  env?: ConfigEnv
  homeDir?: string
}

export interface TurnContext {
  hooks: TurnHooks
  /** The user message that started the turn (for turn-scoped approvals). */
  turnId: () => string | undefined
}

/**
 * Builds what a turn needs from the project's current config and extensions:
 * agents (built-in, config, agent files), tools (built-in, memory, skills, custom
 * tools, MCP), hooks and the system prompt. Re-read for every turn so edits apply
 * at once; an invalid config fails the turn with the file and JSON path of the
 * error; a broken extension file is reported and skipped.
 */
export function turnEnvironment(options: EnvironmentOptions): (session: Session, turn: TurnContext) => Promise<TurnEnvironment> {
  return async (session, turn) => {
    const project = options.projects.get(session.projectId)
    const env = options.env ?? process.env
    const homeDir = options.homeDir ?? resolveHomeDir(env, process.platform)
    const { config } = await loadConfig({ projectDir: project.root, env, homeDir })
    options.providers.setSettings({ providers: config.provider, ...(config.stallTimeoutMs ? { stallTimeoutMs: config.stallTimeoutMs } : {}) })
    const globalDir = globalConfigDir({ env, homeDir, platform: process.platform })
    const locations = { projectRoot: project.root, homeDir, globalConfigDir: globalDir }
    // MCP servers start in parallel and hold up the model request by at most a short grace (so a server that
    // starts quickly is in the first request); one still in its handshake offers its tools from the first step
    // after it connects (tools are listed per step), and one that never answers delays nothing further.
    const mcpStarted = options.mcp ? options.mcp.ensure(project, config) : Promise.resolve(undefined)
    detached('mcp start', mcpStarted)
    const [skills, agentFiles, custom] = await Promise.all([
      discoverSkills(locations),
      loadAgentFiles(locations),
      loadCustomTools(locations),
      Promise.race([mcpStarted.catch(() => undefined), delay(MCP_START_GRACE_MS)]),
    ])
    report(options.bus, project.id, [...skills.errors, ...agentFiles.errors, ...custom.errors])
    const agents = mergeAgentFiles(resolveAgents(config), agentFiles.agents)
    const mcpTools = options.mcp?.toolsOf(project.id) ?? []
    const skillTools = skills.skills.length > 0 ? [createSkillTool(skills.skills)] : []
    const blocks = [skillsPromptBlock(skills.skills), subagentsPromptBlock(agents.values())].filter((b) => b.length > 0)
    return {
      projectRoot: project.root,
      agents,
      config,
      tools: options.tools.for(project).host({
        config,
        sessionId: session.id,
        turnId: turn.turnId,
        hooks: turn.hooks,
        extraTools: [...skillTools, ...custom.tools],
        // Custom and MCP tools run code we have not seen: they ask unless the user's rules say otherwise.
        extraRules: customToolRules([...custom.tools, ...mcpTools]),
      }),
      system: (agent) => {
        const memory = memoryBlock(project.root, config)
        return buildSystemPrompt(agent, {
          projectRoot: project.root,
          globalConfigDir: globalDir,
          extraInstructions: [...(config.instructions ?? []), ...blocks, ...(memory ? [memory] : [])],
        })
      },
      maxTurns: config.maxTurns,
      smallModel: config.smallModel,
      compaction: config.compaction,
    }
  }
}

/** Broken extension files are shown to the user, never dropped silently. */
function report(bus: EventBus | undefined, projectId: string, errors: ExtensionError[]): void {
  for (const error of errors) {
    log.warn(`[extensions] ${error.file}: ${error.error}`)
    bus?.publish('project:notice', { projectId, level: 'warning', message: `${error.file}: ${error.error}` }, projectId)
  }
}

export type { Config }
