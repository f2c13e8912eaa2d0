import { owned, projectsUnder, type AttachContext } from '../attach'
import type { EventBus } from '../bus/bus'
import { DisposableStore, type Disposable } from '../util/disposable'
import { log } from '../util/log'
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

  /**
   * A trust decision applies at once to the open projects below the folder: their config is read again and
   * clients refresh the trust status. Editing the folder's own config or extension files changes what restricted
   * mode withholds: it is re-read (new warnings become notices) and clients are told too. That second reaction
   * runs only where the file watcher runs anyway (a tab showing the tree); the CLI re-reads per command.
   */
  attach({ bus, projects, trust }: AttachContext): Disposable {
    const store = new DisposableStore()
    store.add(
      owned(
        trust.onChange((change) => {
          const affected = projectsUnder(projects, change.path)
          for (const project of affected) this.of(project).reset()
          // Worktrees follow their main project and have no tab of their own.
          const tabs = affected.filter((project) => !project.worktreeOf)
          bus.publish('trust:changed', { ...change, projectIds: tabs.map((project) => project.id) })
        }),
      ),
    )
    store.add(
      owned(
        bus.on('fs:changed', ({ changes }, { projectId }) => {
          if (projectId === undefined) return
          if (!changes.some((change) => touchesProjectConfig(change.path))) return
          const project = projects.find(projectId)
          // A worktree's trust is its main project's: only tabs are told.
          if (!project || project.worktreeOf) return
          this.of(project)
            .load()
            .then((snapshot) => bus.publish('trust:changed', { path: project.root, trusted: snapshot.trust.trusted, projectIds: [projectId] }))
            .catch((error: unknown) => log.warn(`[config] ${project.root}: ${(error as Error).message}`))
        }),
      ),
    )
    return store
  }

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

/** A project-relative path that holds config, MCP servers, tools, agents or hooks of the folder. */
function touchesProjectConfig(path: string): boolean {
  const normalized = path.split('\\').join('/')
  return /^(?:\.hotaru\/)?hotaru\.jsonc?$/.test(normalized) || normalized === '.mcp.json' || /^\.hotaru\/(?:tools|agents)\//.test(normalized)
}
