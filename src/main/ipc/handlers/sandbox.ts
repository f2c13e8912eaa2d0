import type { SandboxStatus } from '@shared/ipc/sandbox'
import { readConfigValue, userConfigFile, writeConfigValue } from '../../core/config/writer'
import { sandboxContext, sandboxStatus } from '../../core/sandbox/status'
import type { Services } from '../../core/services'
import type { DomainHandlers } from '../router'

/** The project's sandbox as it stands, with what the user's own config says (the switch in Settings). */
async function statusOf(services: Services, projectId: string): Promise<SandboxStatus> {
  const project = services.projects.get(projectId)
  const { config } = await services.configs.of(project).load()
  const file = userConfigFile(services.env)
  const own = readConfigValue(file, 'sandbox')
  const enabled = typeof own === 'object' && own !== null && (own as { enabled?: unknown }).enabled === true
  return {
    ...sandboxStatus(config.sandbox, sandboxContext({ projectRoot: project.root, dataDir: services.info().dataDir, env: services.env })),
    user: { enabled, file },
  }
}

export const sandboxHandlers: DomainHandlers<'sandbox'> = {
  status: ({ projectId }, { services }) => statusOf(services, projectId),
  setEnabled: async ({ projectId, enabled }, { services }) => {
    // Checked first, so a project that is not open changes nothing.
    services.projects.get(projectId)
    writeConfigValue(userConfigFile(services.env), ['sandbox', 'enabled'], enabled)
    return statusOf(services, projectId)
  },
}
