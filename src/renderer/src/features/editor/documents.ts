import type * as Monaco from 'monaco-editor'
import type { FsChanged } from '@shared/schema/fs-events'
import { FsErrorNames } from '@shared/schema/fs-errors'
import { errorMessage, IpcError, unwrap } from '../../ipc'
import { onProjectDropped, type ProjectStore } from '../../stores/project'
import { onResync } from '../../stores/resync'
import { workspace } from '../../stores/workspace'
import { loadMonaco, modelUri, type MonacoApi } from './monaco'
import { background } from '../../lib/background'
import { problemsFor } from '../../stores/problems'
import type { LspFileDiagnostics } from '@shared/ipc/lsp'

export interface Reveal {
  /** 1-based. */
  line: number
  /** 1-based; the selection runs from `column` to `endColumn`. */
  column: number
  endColumn: number
}

/** Our own save comes back from the watcher with (nearly) the mtime the save reported. */
const SAME_WRITE_MS = 1

/**
 * The open files of one project: a Monaco model per file, dirty tracking against
 * the last saved version, saving through the fs contract (refused on conflict),
 * and reaction to changes made on disk by others. The store's `openFiles` is the
 * source of truth: adding a path there opens it, removing it closes it.
 */
export class Documents {
  private readonly models = new Map<string, Monaco.editor.ITextModel>()
  private readonly savedVersion = new Map<string, number>()
  private readonly loading = new Set<string>()
  /** Cursor and scroll per file, so switching tabs returns to where you were. */
  readonly viewStates = new Map<string, Monaco.editor.ICodeEditorViewState | null>()
  private readonly unsubscribers: (() => void)[] = []
  private disposed = false
  /** Where to put the cursor once a file is shown (find in files: open at the match). */
  private readonly reveals = new Map<string, Reveal>()
  private readonly revealWaiters = new Set<() => void>()

  constructor(private readonly store: ProjectStore) {
    const { bridge, projectId } = store.getState()
    this.unsubscribers.push(
      store.subscribe((s, prev) => {
        if (s.openFiles !== prev.openFiles) this.sync()
      }),
      bridge.fs.onChanged(({ projectId: id, payload }) => {
        if (id === projectId) this.onDiskChanges(payload)
      }),
      onResync(() => background('recheckAll', this.recheckAll())),
      // Language-server problems become Monaco markers on the open files.
      problemsFor(bridge, projectId).subscribe((s, prev) => {
        if (s.files !== prev.files) for (const path of this.models.keys()) if (s.files[path] !== prev.files[path]) this.applyMarkers(path)
      }),
    )
    this.sync()
  }

  private get state() {
    return this.store.getState()
  }

  model(path: string): Monaco.editor.ITextModel | undefined {
    return this.models.get(path)
  }

  /** Opens (or activates) a file tab. */
  open(path: string, activate = true): void {
    this.state.addOpenFile(path, activate)
  }

  /** Opens a file with the cursor at a line (and a selected range in it). */
  openAt(path: string, reveal: Reveal): void {
    this.reveals.set(path, reveal)
    this.open(path)
    for (const wake of [...this.revealWaiters]) wake()
  }

  /** The pending cursor placement of a file, once. */
  takeReveal(path: string): Reveal | undefined {
    const reveal = this.reveals.get(path)
    this.reveals.delete(path)
    return reveal
  }

  /** The editor listens here for reveals asked while its file is already shown. */
  onReveal(listener: () => void): () => void {
    this.revealWaiters.add(listener)
    return () => this.revealWaiters.delete(listener)
  }

  private sync(): void {
    if (this.disposed) return
    const open = new Set(this.state.openFiles)
    for (const path of open) if (!this.models.has(path) && !this.loading.has(path)) background('load', this.load(path))
    for (const [path, model] of this.models) {
      if (open.has(path)) continue
      model.dispose()
      this.models.delete(path)
      this.savedVersion.delete(path)
      this.viewStates.delete(path)
    }
  }

  private async load(path: string): Promise<void> {
    const { bridge, projectId } = this.state
    this.loading.add(path)
    this.state.setDoc(path, { status: 'loading' })
    try {
      const [file, monaco] = await Promise.all([unwrap(bridge.fs.read({ projectId, path })), loadMonaco()])
      if (this.disposed || !this.state.openFiles.includes(path)) return
      const uri = modelUri(monaco, projectId, path)
      monaco.editor.getModel(uri)?.dispose()
      const model = monaco.editor.createModel(file.content, undefined, uri)
      this.models.set(path, model)
      this.savedVersion.set(path, model.getAlternativeVersionId())
      model.onDidChangeContent(() => this.updateDirty(path))
      this.monaco = monaco
      this.applyMarkers(path)
      // Opening a file starts its language server; the report arrives as an event.
      background('bridge.lsp.open', bridge.lsp.open({ projectId, path }).then((result) => {
        if (!result.ok) console.warn(`[problems] no language server for ${path}:`, result.error.data.message)
      }))
      this.state.setDoc(path, {
        status: 'ready',
        binary: file.binary,
        truncated: file.truncated,
        size: file.size,
        mtimeMs: file.mtimeMs,
        dirty: false,
        conflict: null,
        error: undefined,
      })
    } catch (error) {
      this.state.setDoc(path, { status: 'error', error: errorMessage(error) })
    } finally {
      this.loading.delete(path)
    }
  }

  private monaco: MonacoApi | undefined

  private applyMarkers(path: string): void {
    const model = this.models.get(path)
    if (!model || !this.monaco) return
    const { bridge, projectId } = this.state
    const file: LspFileDiagnostics | undefined = problemsFor(bridge, projectId).getState().files[path]
    const severity = this.monaco.MarkerSeverity
    const levels = { error: severity.Error, warning: severity.Warning, info: severity.Info, hint: severity.Hint }
    this.monaco.editor.setModelMarkers(
      model,
      'lsp',
      (file?.diagnostics ?? []).map((d) => ({
        startLineNumber: d.line,
        startColumn: d.column,
        endLineNumber: d.endLine,
        endColumn: d.endColumn,
        message: d.message,
        severity: levels[d.severity],
        ...(d.code ? { code: d.code } : {}),
        ...(d.source ? { source: d.source } : {}),
      })),
    )
  }

  private updateDirty(path: string): void {
    const model = this.models.get(path)
    if (!model) return
    const dirty = model.getAlternativeVersionId() !== this.savedVersion.get(path)
    if (this.state.docs[path]?.dirty !== dirty) this.state.setDoc(path, { dirty })
  }

  isDirty(path: string): boolean {
    return this.state.docs[path]?.dirty ?? false
  }

  dirtyFiles(): string[] {
    return this.state.openFiles.filter((p) => this.isDirty(p))
  }

  /**
   * Saves the file. Unless `overwrite`, the save is refused when the disk copy
   * changed since it was read: the user then picks reload, compare or overwrite.
   */
  async save(path: string, overwrite = false): Promise<boolean> {
    const model = this.models.get(path)
    const doc = this.state.docs[path]
    if (!model || !doc || doc.status !== 'ready' || doc.binary) return false
    if (doc.truncated) {
      workspace.showError(`${path} is only partly loaded (it is large); saving would cut it short`)
      return false
    }
    const { bridge, projectId } = this.state
    const version = model.getAlternativeVersionId()
    this.state.setDoc(path, { saving: true })
    const result = await bridge.fs.write({
      projectId,
      path,
      content: model.getValue(),
      expectedMtimeMs: overwrite || doc.conflict?.kind === 'deleted' ? undefined : doc.mtimeMs,
    })
    if (result.ok) {
      this.savedVersion.set(path, version)
      this.state.setDoc(path, { saving: false, mtimeMs: result.value.mtimeMs, size: result.value.size, conflict: null })
      this.updateDirty(path)
      return true
    }
    if (result.error.name === FsErrorNames.Conflict) {
      const mtimeMs = typeof result.error.data.mtimeMs === 'number' ? result.error.data.mtimeMs : null
      this.state.setDoc(path, { saving: false, conflict: { kind: mtimeMs === null ? 'deleted' : 'changed', mtimeMs } })
      return false
    }
    this.state.setDoc(path, { saving: false })
    workspace.showError(`Could not save ${path}: ${new IpcError(result.error).message}`)
    return false
  }

  async saveAll(): Promise<void> {
    for (const path of this.dirtyFiles()) await this.save(path)
  }

  /** Replaces the editor content with the disk version (undoable), dropping unsaved edits. */
  async reload(path: string): Promise<void> {
    const model = this.models.get(path)
    if (!model) return
    const { bridge, projectId } = this.state
    try {
      const file = await unwrap(bridge.fs.read({ projectId, path }))
      if (model.isDisposed()) return
      if (model.getValue() !== file.content) {
        model.pushEditOperations([], [{ range: model.getFullModelRange(), text: file.content }], () => null)
      }
      this.savedVersion.set(path, model.getAlternativeVersionId())
      this.state.setDoc(path, { mtimeMs: file.mtimeMs, size: file.size, truncated: file.truncated, conflict: null })
      this.updateDirty(path)
    } catch (error) {
      workspace.showError(`Could not reload ${path}: ${errorMessage(error)}`)
    }
  }

  /** Shows the disk version next to the editor's in a diff. */
  async compareWithDisk(path: string): Promise<void> {
    const model = this.models.get(path)
    if (!model) return
    const { bridge, projectId } = this.state
    const result = await bridge.fs.read({ projectId, path })
    const disk = result.ok ? result.value.content : ''
    this.state.showDiff({
      title: `${path} (on disk ↔ yours)`,
      path,
      original: disk,
      modified: model.getValue(),
      originalLabel: result.ok ? 'On disk' : 'On disk (deleted)',
      modifiedLabel: 'Yours (unsaved)',
    })
  }

  private onDiskChanges(batch: FsChanged): void {
    for (const change of batch.changes) {
      if (!this.models.has(change.path)) continue
      const doc = this.state.docs[change.path]
      if (!doc || doc.status !== 'ready' || doc.saving) continue
      if (change.kind === 'deleted') {
        this.state.setDoc(change.path, { conflict: { kind: 'deleted', mtimeMs: null } })
        continue
      }
      const mtimeMs = change.entry?.mtimeMs
      if (mtimeMs === undefined || Math.abs(mtimeMs - doc.mtimeMs) <= SAME_WRITE_MS) continue
      // Clean editors follow the disk quietly; unsaved edits are never thrown away without asking.
      if (!doc.dirty) background('reload', this.reload(change.path))
      else this.state.setDoc(change.path, { conflict: { kind: 'changed', mtimeMs } })
    }
  }

  /** After a reconnect: compare every open file with the disk, as if a change event had come. */
  private async recheckAll(): Promise<void> {
    const { bridge, projectId } = this.state
    for (const path of [...this.models.keys()]) {
      const result = await bridge.fs.read({ projectId, path })
      if (!result.ok) {
        if (result.error.name === 'NotFound') this.onDiskChanges({ changes: [{ kind: 'deleted', path }], invalidated: [] })
        continue
      }
      const { mtimeMs, size } = result.value
      this.onDiskChanges({
        changes: [{ kind: 'changed', path, entry: { name: path, path, kind: 'file', size, mtimeMs, ignored: false } }],
        invalidated: [],
      })
    }
  }

  dispose(): void {
    this.disposed = true
    for (const off of this.unsubscribers) off()
    for (const model of this.models.values()) model.dispose()
    this.models.clear()
  }
}

const registry = new Map<string, Documents>()

/** The documents of a project (created with its first use). */
export function documentsFor(store: ProjectStore): Documents {
  const id = store.getState().projectId
  let docs = registry.get(id)
  if (!docs) {
    docs = new Documents(store)
    registry.set(id, docs)
  }
  return docs
}

onProjectDropped((projectId) => {
  registry.get(projectId)?.dispose()
  registry.delete(projectId)
})
