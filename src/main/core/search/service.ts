import { ErrorNames, HotaruError } from '@shared/errors'
import type { SearchFileResult, SearchQuery } from '@shared/schema/search'
import type { BusPayload, EventBus } from '../bus/bus'
import type { ProjectManager } from '../project/manager'
import { ServiceKey } from '../project/service-key'
import type { Subscription } from '../util/disposable'
import { bundledRipgrep } from '../tools/search/ripgrep'
import { log } from '../util/log'
import { ProjectFileIndex, type FileList } from './file-index'
import { searchText } from './text-search'

const INDEX_KEY = new ServiceKey<ProjectFileIndex>('file-index')

/**
 * Project search for the UI: the file index (Quick Open, @-mentions) and
 * find in files, streamed as `search:results` events per batch of files and
 * ended by one `search:done`; a running search can be cancelled by id.
 */
export class SearchService {
  private readonly running = new Map<string, AbortController>()
  private readonly changes: Subscription

  constructor(
    private readonly projects: ProjectManager,
    private readonly bus: EventBus,
    private readonly rg: string | null = bundledRipgrep(),
  ) {
    this.changes = bus.on('fs:changed', ({ changes, invalidated }, { projectId }) => {
      if (!projectId) return
      if (invalidated.length === 0 && changes.every((c) => c.kind === 'changed')) return
      this.existingIndex(projectId)?.invalidate()
    })
  }

  files(projectId: string): Promise<FileList> {
    const project = this.projects.get(projectId)
    return project.service(INDEX_KEY, () => new ProjectFileIndex(project.root, this.rg)).files()
  }

  /** Starts a search; results arrive as events carrying `searchId`. A search with the same id is replaced. */
  start(projectId: string, searchId: string, query: SearchQuery): void {
    const project = this.projects.get(projectId)
    if (!this.rg) throw new HotaruError(ErrorNames.Unsupported, { message: 'find in files needs the ripgrep binary, which is missing from this install' })
    if (query.query === '') throw new HotaruError(ErrorNames.InvalidPayload, { message: 'nothing to search for' })
    this.cancel(searchId)
    const controller = new AbortController()
    this.running.set(searchId, controller)
    const publish = <C extends 'search:results' | 'search:done'>(channel: C, payload: BusPayload<C>): void => {
      this.bus.publish(channel, payload, projectId)
    }
    let batch: SearchFileResult[] = []
    let timer: ReturnType<typeof setTimeout> | null = null
    const send = (): void => {
      if (timer) clearTimeout(timer)
      timer = null
      if (batch.length === 0) return
      publish('search:results', { searchId, files: batch })
      batch = []
    }
    void searchText(this.rg, project.root, query, controller.signal, (file) => {
      batch.push(file)
      // Files are sent in small batches: the first ones at once, the rest at most every 50 ms.
      if (batch.length >= 50) send()
      else timer ??= setTimeout(send, 50)
    }).then(
      (summary) => {
        send()
        publish('search:done', { searchId, ...summary })
      },
      (error: unknown) => {
        send()
        log.warn(`[search] ${project.root}: ${(error as Error).message}`)
        publish('search:done', { searchId, files: 0, matches: 0, truncated: false, cancelled: false, error: (error as Error).message })
      },
    ).finally(() => {
      if (this.running.get(searchId) === controller) this.running.delete(searchId)
    })
  }

  cancel(searchId: string): boolean {
    const controller = this.running.get(searchId)
    if (!controller) return false
    controller.abort()
    this.running.delete(searchId)
    return true
  }

  /** Stops listening for file changes and cancels the searches still running (the app is closing). */
  dispose(): void {
    this.changes.dispose()
    for (const controller of this.running.values()) controller.abort()
    this.running.clear()
  }

  private existingIndex(projectId: string): ProjectFileIndex | undefined {
    // The project may have closed meanwhile: nothing to invalidate then.
    if (!this.projects.list().some((p) => p.id === projectId)) return undefined
    const project = this.projects.get(projectId)
    return project.service(INDEX_KEY, () => new ProjectFileIndex(project.root, this.rg))
  }
}
