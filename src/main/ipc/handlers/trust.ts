import type { TrustStatus } from '@shared/ipc/trust'
import type { Services } from '../../core/services'
import type { DomainHandlers } from '../router'

async function status(services: Services, projectId: string): Promise<TrustStatus> {
  const project = services.projects.get(projectId)
  const snapshot = await services.configs.of(project).load()
  return {
    projectId,
    path: snapshot.trust.path,
    trusted: snapshot.trust.trusted,
    ...(snapshot.trust.decidedBy ? { decidedBy: snapshot.trust.decidedBy } : {}),
    withheld: snapshot.withheld,
  }
}

export const trustHandlers: DomainHandlers<'trust'> = {
  status: ({ projectId }, { services }) => status(services, projectId),
  decide: async ({ projectId, trusted }, { services }) => {
    const project = services.projects.get(projectId)
    if (trusted) services.trust.trust(project.root)
    else services.trust.restrict(project.root)
    return status(services, projectId)
  },
  list: (_input, { services }) => services.trust.list(),
  revoke: ({ path }, { services }) => ({ removed: services.trust.revoke(path).removed }),
}
