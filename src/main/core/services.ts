import type { AppInfo } from '@shared/ipc/app'
import { APP_NAME, APP_VERSION } from './app/meta'
import type { FolderPicker } from './app/folder-picker'
import { EventBus } from './bus/bus'
import { ProjectManager } from './project/manager'
import { Storage } from './storage'

export interface ServicesOptions {
  dataDir: string
  transport: AppInfo['transport']
  /** better-sqlite3 addon for a non-Node ABI (the desktop app's Electron build). */
  nativeBinding?: string
  folderPicker?: FolderPicker
  /** Whether dropped files carry filesystem paths (Electron only). */
  dropPaths?: boolean
}

/** The composition root of the core: one object, built in one place, passed down. */
export interface Services {
  readonly storage: Storage
  readonly bus: EventBus
  readonly projects: ProjectManager
  readonly folderPicker?: FolderPicker
  info(): AppInfo
  dispose(): Promise<void>
}

export function createServices(options: ServicesOptions): Services {
  const storage = Storage.open(options.dataDir, { nativeBinding: options.nativeBinding })
  const bus = new EventBus()
  const projects = new ProjectManager(storage, bus)
  let disposed = false
  return {
    storage,
    bus,
    projects,
    folderPicker: options.folderPicker,
    info: () => ({
      name: APP_NAME,
      version: APP_VERSION,
      platform: process.platform,
      transport: options.transport,
      dataDir: options.dataDir,
      capabilities: { pickFolder: options.folderPicker !== undefined, dropPaths: options.dropPaths ?? false },
    }),
    async dispose() {
      if (disposed) return
      disposed = true
      try {
        await projects.dispose()
      } finally {
        storage.close()
      }
    },
  }
}
