import { sandboxContext, sandboxStatus } from '../../core/sandbox/status'
import type { DomainHandlers } from '../router'

export const sandboxHandlers: DomainHandlers<'sandbox'> = {
  status: async ({ projectId }, { services }) => {
    const project = services.projects.get(projectId)
    const { config } = await services.configs.of(project).load()
    return sandboxStatus(config.sandbox, sandboxContext({ projectRoot: project.root, dataDir: services.info().dataDir }))
  },
}
