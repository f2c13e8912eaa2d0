import { background } from '../lib/background'
import { createStore, type StoreApi } from 'zustand'
import type { HotaruBridge } from '@shared/ipc'
import type { SearchQuery } from '@shared/schema/search'
import { FileIndex } from '../features/chat/composer/file-index'
import { searchReducer, type SearchRun } from '../features/search/search-model'
import { ChatController } from './chat-controller'
import { dropProjectStore, onProjectDropped } from './project'
import { WorktreesController } from './worktrees'

let nextSearch = 1

/** Find in files of one project tab: starts, streams and cancels core searches. */
export class SearchController {
  readonly store: StoreApi<{ run: SearchRun | null }>
  private readonly off: (() => void)[]

  constructor(
    private readonly bridge: HotaruBridge,
    private readonly projectId: string,
  ) {
    this.store = createStore(() => ({ run: null as SearchRun | null }))
    const apply = (event: Parameters<typeof searchReducer>[1]): void => this.store.setState((s) => ({ run: searchReducer(s.run, event) }))
    this.off = [
      bridge.search.onResults(({ projectId: id, payload }) => {
        if (id === projectId) apply({ type: 'results', searchId: payload.searchId, files: payload.files })
      }),
      bridge.search.onDone(({ projectId: id, payload }) => {
        if (id === projectId) apply({ type: 'done', summary: payload })
      }),
    ]
  }

  async start(query: SearchQuery): Promise<void> {
    this.cancel()
    const searchId = `s${Date.now().toString(36)}${nextSearch++}`
    this.store.setState((s) => ({ run: searchReducer(s.run, { type: 'start', searchId, query }) }))
    const result = await this.bridge.search.text({ projectId: this.projectId, searchId, query })
    if (!result.ok) this.store.setState((s) => ({ run: searchReducer(s.run, { type: 'failed', searchId, error: result.error.data.message }) }))
  }

  cancel(): void {
    const run = this.store.getState().run
    if (!run || run.status !== 'running') return
    this.store.setState((s) => ({ run: searchReducer(s.run, { type: 'cancel', searchId: run.searchId }) }))
    background('this.bridge.search.cancel', this.bridge.search.cancel({ searchId: run.searchId }).then((result) => {
      if (!result.ok) console.warn('[search] cancel failed:', result.error.data.message)
    }))
  }

  clear(): void {
    this.cancel()
    this.store.setState({ run: null })
  }

  dispose(): void {
    this.cancel()
    for (const off of this.off) off()
  }
}

/**
 * Everything the renderer holds for one project tab besides its view store:
 * the chat (sessions, checkpoints), the file index and find in files. Created
 * on first use, disposed when the tab closes, so nothing of a closed project
 * keeps listening or holding memory.
 */
export class ProjectClient {
  readonly files: FileIndex
  readonly search: SearchController
  private chatController: ChatController | null = null
  private worktreesController: WorktreesController | null = null

  constructor(
    readonly bridge: HotaruBridge,
    readonly projectId: string,
  ) {
    this.files = new FileIndex(bridge, projectId)
    this.search = new SearchController(bridge, projectId)
  }

  get chat(): ChatController {
    this.chatController ??= new ChatController(this.bridge, this.projectId)
    return this.chatController
  }

  /** Starts the chat now (a worktree's, so its sessions are tracked before it is shown). */
  startChat(): void {
    this.chatController ??= new ChatController(this.bridge, this.projectId)
  }

  get hasChat(): boolean {
    return this.chatController !== null
  }

  /** The tab's worktrees; each one's chat is the chat of its own project client. */
  get worktrees(): WorktreesController {
    this.worktreesController ??= new WorktreesController(this.bridge, this.projectId, {
      opened: (worktree) => projectClient(this.bridge, worktree.projectId).startChat(),
      // Its folder's store (tree, editor) goes too, and with it this client (`onProjectDropped`).
      removed: (worktree) => dropProjectStore(worktree.projectId),
    })
    return this.worktreesController
  }

  dispose(): void {
    this.worktreesController?.dispose()
    this.chatController?.dispose()
    this.files.dispose()
    this.search.dispose()
  }
}

const clients = new Map<string, ProjectClient>()

/** Ends what the renderer holds for a project: a closed tab, or a worktree that was removed. */
export function dropProjectClient(projectId: string): void {
  clients.get(projectId)?.dispose()
  clients.delete(projectId)
}

onProjectDropped(dropProjectClient)

export function projectClient(bridge: HotaruBridge, projectId: string): ProjectClient {
  let client = clients.get(projectId)
  if (!client) {
    client = new ProjectClient(bridge, projectId)
    clients.set(projectId, client)
  }
  return client
}

export function existingProjectClient(projectId: string): ProjectClient | undefined {
  return clients.get(projectId)
}
