import type { ProjectInfo } from '@shared/schema/project'
import { DisposableStore } from '../util/disposable'
import { IgnoreRules } from './ignore-rules'
import { listDirectory, readFile } from './files'

/**
 * One open project folder. Everything long-lived that belongs to the project
 * (watchers, terminals, MCP servers, agents) registers in `disposables` and ends
 * when the project's tab closes.
 */
export class ProjectInstance {
  readonly disposables = new DisposableStore()
  readonly ignore: IgnoreRules

  constructor(readonly info: ProjectInfo) {
    this.ignore = new IgnoreRules(info.root)
  }

  get id(): string {
    return this.info.id
  }

  get root(): string {
    return this.info.root
  }

  list(rel: string) {
    return listDirectory(this.root, rel, this.ignore)
  }

  read(rel: string) {
    return readFile(this.root, rel)
  }

  dispose(): Promise<void> {
    return this.disposables.dispose()
  }
}
