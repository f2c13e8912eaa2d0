import type { EventBus } from '../bus/bus'
import type { ProjectInstance } from '../project/instance'
import { ServiceKey } from '../project/service-key'
import type { TrustService } from '../trust/trust-service'
import type { ConfigEnv } from './locations'
import { ProjectConfig } from './project-config'

const SERVICE_KEY = new ServiceKey<ProjectConfig>('config')

/**
 * Hands out the one `ProjectConfig` of each open project (owned by its
 * ProjectInstance), sharing the app's environment and trust decisions.
 */
export class ProjectConfigs {
  constructor(
    private readonly options: { trust: TrustService; env: ConfigEnv; bus?: EventBus; homeDir?: string },
  ) {}

  of(project: ProjectInstance): ProjectConfig {
    return project.service(
      SERVICE_KEY,
      () =>
        new ProjectConfig(project.root, {
          trust: this.options.trust,
          trustRoot: project.trustRoot,
          env: this.options.env,
          homeDir: this.options.homeDir,
          notify: (level, message) => this.options.bus?.publish('project:notice', { projectId: project.id, level, message }, project.id),
        }),
    )
  }
}
