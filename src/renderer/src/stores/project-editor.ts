import type { StoreApi } from 'zustand'

export interface DocState {
  status: 'loading' | 'ready' | 'error'
  error?: string
  binary: boolean
  truncated: boolean
  size: number
  /** mtime of the disk version the editor content is based on. */
  mtimeMs: number
  dirty: boolean
  saving: boolean
  /** The file changed (or vanished) on disk while the editor has unsaved changes. */
  conflict: { kind: 'changed' | 'deleted'; mtimeMs: number | null } | null
}

/** A diff shown in the editor area (e.g. "compare with disk"). */
export interface DiffRequest {
  title: string
  path: string
  original: string
  modified: string
  originalLabel: string
  modifiedLabel: string
}

export interface EditorSlice {
  openFiles: string[]
  activeFile: string | null
  docs: Record<string, DocState>
  diff: DiffRequest | null
  /** Files shown in the editor, most recent first (Quick Open lists them first). */
  recentFiles: string[]
  setDoc(path: string, patch: Partial<DocState>): void
  addOpenFile(path: string, activate: boolean): void
  removeOpenFile(path: string): void
  setActiveFile(path: string | null): void
  moveOpenFile(path: string, index: number): void
  showDiff(diff: DiffRequest | null): void
}

const EMPTY_DOC: DocState = {
  status: 'loading',
  binary: false,
  truncated: false,
  size: 0,
  mtimeMs: 0,
  dirty: false,
  saving: false,
  conflict: null,
}

const MAX_RECENT = 50

function recent(list: readonly string[], path: string): string[] {
  return [path, ...list.filter((p) => p !== path)].slice(0, MAX_RECENT)
}

/** Plain editor data; the Monaco models behind it live in features/editor. */
export function createEditorSlice(set: StoreApi<EditorSlice>['setState'], get: StoreApi<EditorSlice>['getState']): EditorSlice {
  return {
    openFiles: [],
    activeFile: null,
    docs: {},
    diff: null,
    recentFiles: [],
    setDoc(path, patch) {
      set((s) => ({ docs: { ...s.docs, [path]: { ...(s.docs[path] ?? EMPTY_DOC), ...patch } } }))
    },
    addOpenFile(path, activate) {
      set((s) => ({
        openFiles: s.openFiles.includes(path) ? s.openFiles : [...s.openFiles, path],
        activeFile: activate ? path : (s.activeFile ?? path),
        diff: activate ? null : s.diff,
        recentFiles: activate ? recent(s.recentFiles, path) : s.recentFiles,
      }))
    },
    removeOpenFile(path) {
      set((s) => {
        const index = s.openFiles.indexOf(path)
        const openFiles = s.openFiles.filter((p) => p !== path)
        const { [path]: _closed, ...docs } = s.docs
        const activeFile =
          s.activeFile === path ? (openFiles[Math.min(index, openFiles.length - 1)] ?? null) : s.activeFile
        return { openFiles, docs, activeFile }
      })
    },
    setActiveFile(path) {
      set((s) => ({ activeFile: path, diff: null, recentFiles: path ? recent(s.recentFiles, path) : s.recentFiles }))
    },
    moveOpenFile(path, index) {
      const files = get().openFiles.filter((p) => p !== path)
      files.splice(Math.max(0, Math.min(index, files.length)), 0, path)
      set({ openFiles: files })
    },
    showDiff(diff) {
      set({ diff })
    },
  }
}
