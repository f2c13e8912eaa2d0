import type { SandboxConfig } from '../config/schema'
import { sandboxPolicy, type PolicyContext } from './policy'
import { CommandSandbox } from './sandbox'
import { sandboxSupport } from './support'
import { sandboxContext } from './status'

/** The sandbox commands of a project run in, or undefined while `sandbox.enabled` is off. */
export function commandSandbox(config: SandboxConfig | undefined, ctx: PolicyContext): CommandSandbox | undefined {
  if (!config?.enabled) return undefined
  return new CommandSandbox(sandboxPolicy(config, ctx), sandboxSupport(ctx.env as NodeJS.ProcessEnv | undefined))
}

/**
 * The sandbox of an MCP server that opts in (`"sandbox": true`): it runs confined even while bash is not
 * (`sandbox.enabled` off), with the project's sandbox settings otherwise.
 */
export function optInSandbox(dataDir: string, env: NodeJS.ProcessEnv): (projectRoot: string, config: { sandbox?: SandboxConfig }) => CommandSandbox {
  return (projectRoot, config) => new CommandSandbox(sandboxPolicy({ ...config.sandbox, enabled: true }, sandboxContext({ projectRoot, dataDir, env })), sandboxSupport(env))
}
