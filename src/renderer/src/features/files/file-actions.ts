import { FsErrorNames } from '@shared/schema/fs-errors'
import { errorMessage, unwrap } from '../../ipc'
import { absolutePath, baseName, joinPath, parentOf } from '../../lib/paths'
import type { ProjectStore } from '../../stores/project'
import { workspace } from '../../stores/workspace'
import { confirmDialog, promptDialog } from '../dialogs'

function validName(value: string): string | null {
  if (/[\\]|^\.\.?$|\0/.test(value)) return 'Not a valid name'
  if (value.split('/').some((s) => s === '..' || s === '')) return 'Not a valid name'
  if (value.startsWith('/')) return 'Use a name relative to the folder'
  return null
}

async function run(action: () => Promise<void>, what: string): Promise<void> {
  try {
    await action()
  } catch (error) {
    workspace.showError(`${what}: ${errorMessage(error)}`)
  }
}

/** New file or folder in `dir` ('' = project root); returns the created path. */
export async function createInFolder(store: ProjectStore, dir: string, kind: 'file' | 'dir'): Promise<string | null> {
  const name = await promptDialog({
    title: kind === 'file' ? 'New File' : 'New Folder',
    message: `In ${dir || 'the project root'}`,
    confirmLabel: 'Create',
    validate: validName,
  })
  if (!name) return null
  const { bridge, projectId } = store.getState()
  const path = joinPath(dir, name)
  let created: string | null = null
  await run(async () => {
    const result = await bridge.fs.create({ projectId, path, kind })
    if (!result.ok && result.error.name === FsErrorNames.AlreadyExists) {
      workspace.showError(`${path} already exists`)
      return
    }
    const entry = await unwrap(Promise.resolve(result))
    created = entry.path
    // Show it right away rather than waiting for the watcher's batch.
    store.getState().applyFsChanges({ changes: [{ kind: 'created', path: entry.path, entry }], invalidated: [] })
    await store.getState().revealInTree(entry.path)
  }, `Could not create ${path}`)
  return created
}

export async function renameEntry(store: ProjectStore, path: string): Promise<void> {
  const name = baseName(path)
  const dot = name.lastIndexOf('.')
  const next = await promptDialog({
    title: 'Rename',
    initial: name,
    select: [0, dot > 0 ? dot : name.length],
    confirmLabel: 'Rename',
    validate: (v) => validName(v) ?? (v === name ? 'Type a new name' : null),
  })
  if (!next) return
  const { bridge, projectId } = store.getState()
  const to = joinPath(parentOf(path), next)
  await run(async () => {
    const entry = await unwrap(bridge.fs.rename({ projectId, from: path, to }))
    const state = store.getState()
    state.applyFsChanges({
      changes: [
        { kind: 'deleted', path },
        { kind: 'created', path: entry.path, entry },
      ],
      invalidated: [],
    })
    // An open editor follows its file to the new name.
    for (const open of state.openFiles) {
      if (open === path || open.startsWith(`${path}/`)) {
        state.removeOpenFile(open)
        state.addOpenFile(entry.path + open.slice(path.length), open === state.activeFile)
      }
    }
    state.setFocused(entry.path)
  }, `Could not rename ${path}`)
}

export async function deleteEntry(store: ProjectStore, path: string, isDir: boolean): Promise<void> {
  const ok = await confirmDialog({
    title: isDir ? 'Delete folder' : 'Delete file',
    message: isDir
      ? `Delete the folder "${path}" and everything in it? This cannot be undone.`
      : `Delete "${path}"? This cannot be undone.`,
    confirmLabel: 'Delete',
    danger: true,
  })
  if (!ok) return
  const { bridge, projectId } = store.getState()
  await run(async () => {
    await unwrap(bridge.fs.delete({ projectId, path }))
    store.getState().applyFsChanges({ changes: [{ kind: 'deleted', path }], invalidated: [] })
  }, `Could not delete ${path}`)
}

export async function copyPath(store: ProjectStore, path: string, relative: boolean): Promise<void> {
  const text = relative ? path || '.' : absolutePath(store.getState().root, path)
  await run(() => navigator.clipboard.writeText(text), 'Could not copy to the clipboard')
}

export async function revealInOs(store: ProjectStore, path: string): Promise<void> {
  const { bridge, projectId } = store.getState()
  await run(async () => {
    await unwrap(bridge.fs.reveal({ projectId, path }))
  }, `Could not reveal ${path || 'the project'}`)
}
