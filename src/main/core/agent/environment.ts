import type { Session } from '@shared/schema/session'
import { globalConfigDir, loadConfig, type Config, type ConfigEnv } from '../config'
import { resolveHomeDir } from '../config/locations'
import type { ProjectManager } from '../project/manager'
import type { ProjectInstance } from '../project/instance'
import type { ProviderRegistry } from '../provider'
import { resolveAgents, type AgentInfo } from './agents'
import type { TurnEnvironment } from './service'
import { buildSystemPrompt } from './system-prompt'
import type { ToolHost } from './tool-host'

export interface ToolHostFactory {
  (input: { project: ProjectInstance; config: Config; session: Session; agents: Map<string, AgentInfo> }): ToolHost
}

export interface EnvironmentOptions {
  projects: ProjectManager
  providers: ProviderRegistry
  tools: ToolHostFactory
  env?: ConfigEnv
  homeDir?: string
}

/**
 * Builds what a turn needs from the project's current config: agents, tools and
 * the system prompt. Config is re-read for every turn so edits apply at once; an
 * invalid config fails the turn with the file and JSON path of the error.
 */
export function turnEnvironment(options: EnvironmentOptions): (session: Session) => Promise<TurnEnvironment> {
  return async (session) => {
    const project = options.projects.get(session.projectId)
    const { config } = await loadConfig({ projectDir: project.root, env: options.env, homeDir: options.homeDir })
    options.providers.setSettings({ providers: config.provider })
    const agents = resolveAgents(config)
    const env = options.env ?? process.env
    const globalDir = globalConfigDir({
      env,
      homeDir: options.homeDir ?? resolveHomeDir(env, process.platform),
      platform: process.platform,
    })
    return {
      projectRoot: project.root,
      agents,
      tools: options.tools({ project, config, session, agents }),
      system: (agent) =>
        buildSystemPrompt(agent, { projectRoot: project.root, globalConfigDir: globalDir, extraInstructions: config.instructions }),
      maxTurns: config.maxTurns,
      smallModel: config.smallModel,
    }
  }
}
