import { baseName } from '../../lib/paths'
import type { ProjectStore } from '../../stores/project'
import { confirmDialog } from '../dialogs'
import { documentsFor } from './documents'

/** Opens a file of the project in the editor (and loads it). */
export function openFile(store: ProjectStore, path: string, activate = true): void {
  documentsFor(store).open(path, activate)
}

/** Closes a file tab, asking first when it has unsaved changes. */
export async function closeFile(store: ProjectStore, path: string): Promise<boolean> {
  const docs = documentsFor(store)
  if (docs.isDirty(path)) {
    const discard = await confirmDialog({
      title: 'Unsaved changes',
      message: `${baseName(path)} has changes that are not saved. Close it and lose them?`,
      confirmLabel: 'Discard and close',
      danger: true,
    })
    if (!discard) return false
  }
  store.getState().removeOpenFile(path)
  return true
}

export function saveActive(store: ProjectStore): Promise<boolean> {
  const path = store.getState().activeFile
  return path ? documentsFor(store).save(path) : Promise.resolve(false)
}

export function saveAll(store: ProjectStore): Promise<void> {
  return documentsFor(store).saveAll()
}

/** Files of a project with unsaved changes (asked about before its tab closes). */
export function unsavedFiles(store: ProjectStore): string[] {
  return documentsFor(store).dirtyFiles()
}
