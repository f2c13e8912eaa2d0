import type { SandboxConfig } from '../config/schema'
import { sandboxPolicy, type PolicyContext } from './policy'
import { CommandSandbox } from './sandbox'
import { sandboxSupport } from './support'

/** The sandbox commands of a project run in, or undefined while `sandbox.enabled` is off. */
export function commandSandbox(config: SandboxConfig | undefined, ctx: PolicyContext): CommandSandbox | undefined {
  if (!config?.enabled) return undefined
  return new CommandSandbox(sandboxPolicy(config, ctx), sandboxSupport(ctx.env as NodeJS.ProcessEnv | undefined))
}
