import type { Session } from '@shared/schema/session'
import { globalConfigDir, loadConfig, type ConfigEnv } from '../config'
import { resolveHomeDir } from '../config/locations'
import type { ProjectManager } from '../project/manager'
import type { ProviderRegistry } from '../provider'
import { memoryBlock } from '../context'
import { resolveAgents } from './agents'
import type { McpRuntime } from './mcp-runtime'
import type { ToolRuntimes, TurnHooks } from './project-tools'
import type { TurnEnvironment } from './service'
import { buildSystemPrompt } from './system-prompt'

export interface EnvironmentOptions {
  projects: ProjectManager
  providers: ProviderRegistry
  tools: ToolRuntimes
  mcp?: McpRuntime
  env?: ConfigEnv
  homeDir?: string
}

export interface TurnContext {
  hooks: TurnHooks
  /** The user message that started the turn (for turn-scoped approvals). */
  turnId: () => string | undefined
}

/**
 * Builds what a turn needs from the project's current config: agents, tools and
 * the system prompt. Config is re-read for every turn so edits apply at once; an
 * invalid config fails the turn with the file and JSON path of the error.
 */
export function turnEnvironment(options: EnvironmentOptions): (session: Session, turn: TurnContext) => Promise<TurnEnvironment> {
  return async (session, turn) => {
    const project = options.projects.get(session.projectId)
    const env = options.env ?? process.env
    const { config } = await loadConfig({ projectDir: project.root, env, homeDir: options.homeDir })
    options.providers.setSettings({ providers: config.provider })
    await options.mcp?.ensure(project, config)
    const agents = resolveAgents(config)
    const globalDir = globalConfigDir({
      env,
      homeDir: options.homeDir ?? resolveHomeDir(env, process.platform),
      platform: process.platform,
    })
    return {
      projectRoot: project.root,
      agents,
      tools: options.tools.for(project).host({ config, sessionId: session.id, turnId: turn.turnId, hooks: turn.hooks }),
      system: (agent) => {
        const memory = memoryBlock(project.root, config)
        return buildSystemPrompt(agent, {
          projectRoot: project.root,
          globalConfigDir: globalDir,
          extraInstructions: [...(config.instructions ?? []), ...(memory ? [memory] : [])],
        })
      },
      maxTurns: config.maxTurns,
      smallModel: config.smallModel,
      compaction: config.compaction,
    }
  }
}
