import { memo, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react'
import { useVirtualizer } from '@tanstack/react-virtual'
import { ContextMenu, type MenuItem } from '../../components/ContextMenu'
import { formatShortcut } from '../../lib/keys'
import { parentOf } from '../../lib/paths'
import { existingProjectStore, useProject, useProjectStore } from '../../stores/project'
import { tabOf } from '../../stores/chat-scope'
import { gitDecorationOf, type GitDecoration } from '../../stores/project-tree'
import { useWorkspace } from '../../stores/workspace'
import { openFile } from '../editor'
import { openTerminal } from '../terminal'
import { copyPath, createInFolder, deleteEntry, renameEntry, revealInOs } from './file-actions'
import { flattenTree, type TreeRowData } from './flatten'
import { background } from '../../lib/background'
import { FileIcon } from '../../components/FileIcon'
import { Icon } from '../../components/Icon'

const ROW_HEIGHT = 22
const INDENT = 12
const TYPEAHEAD_MS = 700

const GIT_LETTER: Record<GitDecoration, string> = {
  modified: 'M',
  added: 'A',
  deleted: 'D',
  renamed: 'R',
  untracked: 'U',
  conflicted: '!',
  contains: '•',
}

interface RowProps {
  row: TreeRowData
  focused: boolean
  git: GitDecoration | undefined
  domId: string
  onActivate(row: TreeRowData): void
  onMenu(row: TreeRowData, e: MouseEvent): void
}

const Row = memo(function Row({ row, focused, git, domId, onActivate, onMenu }: RowProps) {
  if (row.kind === 'note') {
    return (
      <div className={`tree-note${row.error ? ' error' : ''}`} style={{ paddingLeft: row.depth * INDENT + 26 }}>
        {row.text}
      </div>
    )
  }
  const { entry, isDir, expanded } = row
  return (
    <div
      id={domId}
      role="treeitem"
      aria-level={row.depth + 1}
      aria-expanded={isDir ? expanded : undefined}
      aria-selected={focused}
      data-path={entry.path}
      className={`tree-row${entry.ignored ? ' ignored' : ''}${focused ? ' selected' : ''}${git ? ` git-${git}` : ''}`}
      style={{ paddingLeft: row.depth * INDENT + 8 }}
      title={entry.path}
      onClick={() => onActivate(row)}
      onContextMenu={(e) => onMenu(row, e)}
    >
      <span className={`twisty${isDir ? (expanded ? ' open' : ' closed') : ''}`} aria-hidden />
      <FileIcon path={entry.path} {...(isDir ? { folder: { open: expanded } } : {})} />
      <span className={isDir ? 'dir-name' : 'file-name'}>{entry.name}</span>
      {entry.kind === 'symlink' && (
        <span className="badge" title="symbolic link">
          <Icon name="link" label="symbolic link" />
        </span>
      )}
      {git && (
        <span className="git-letter" aria-label={`git: ${git}`}>
          {GIT_LETTER[git]}
        </span>
      )}
    </div>
  )
})

/**
 * The project's files: a virtual list of the expanded tree (50k rows scroll as
 * smoothly as 50), folders loaded when opened, live updates from the watcher,
 * git colours, VS Code-style keyboard navigation and a context menu.
 */
export function FileTree() {
  const store = useProjectStore()
  const projectId = useProject((s) => s.projectId)
  const dirs = useProject((s) => s.dirs)
  const expanded = useProject((s) => s.expanded)
  const focused = useProject((s) => s.focused)
  const decorations = useProject((s) => s.gitDecorations)
  const activeFile = useProject((s) => s.activeFile)
  const canReveal = useWorkspace((s) => s.info?.transport === 'electron')
  const rows = useMemo(() => flattenTree(dirs, expanded), [dirs, expanded])
  const scroller = useRef<HTMLDivElement>(null)
  const [menu, setMenu] = useState<{ x: number; y: number; row: TreeRowData | null } | null>(null)
  const typeahead = useRef({ text: '', at: 0 })

  // The React Compiler is not used here; useVirtualizer's unmemoizable functions are its intended API.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 16,
  })

  const indexOf = useCallback(
    (path: string | null) => (path === null ? -1 : rows.findIndex((r) => r.kind === 'entry' && r.entry.path === path)),
    [rows],
  )
  const focusedIndex = indexOf(focused)

  const focusIndex = (index: number): void => {
    const row = rows[index]
    if (!row || row.kind !== 'entry') return
    store.getState().setFocused(row.entry.path)
    virtualizer.scrollToIndex(index, { align: 'auto' })
  }

  // The tree follows the editor: the active file is revealed (folders above it opened).
  useEffect(() => {
    if (activeFile) background('revealInTree', store.getState().revealInTree(activeFile))
  }, [activeFile, store])

  useEffect(() => {
    if (focusedIndex >= 0) virtualizer.scrollToIndex(focusedIndex, { align: 'auto' })
  }, [focusedIndex, virtualizer])

  const activate = useCallback(
    (row: TreeRowData) => {
      if (row.kind !== 'entry') return
      const state = store.getState()
      state.setFocused(row.entry.path)
      if (row.isDir) state.toggle(row.entry.path)
      else openFile(store, row.entry.path)
    },
    [store],
  )

  const openMenu = useCallback((row: TreeRowData | null, e: MouseEvent) => {
    e.preventDefault()
    e.stopPropagation()
    if (row?.kind === 'entry') store.getState().setFocused(row.entry.path)
    setMenu({ x: e.clientX, y: e.clientY, row })
  }, [store])

  const menuItems = (row: TreeRowData | null): MenuItem[] => {
    const entry = row?.kind === 'entry' ? row : null
    const path = entry?.entry.path ?? ''
    const isDir = entry ? entry.isDir : true
    const folder = isDir ? path : parentOf(path)
    const items: MenuItem[] = []
    if (entry && !isDir) items.push({ id: 'open', label: 'Open', onSelect: () => openFile(store, path) })
    items.push(
      { id: 'new-file', label: 'New File…', onSelect: () => background('createNew', createNew(folder, 'file')) },
      { id: 'new-folder', label: 'New Folder…', onSelect: () => background('createNew', createNew(folder, 'dir')) },
    )
    if (isDir) {
      // Terminals belong to the tab (its panel), even when the tree shows one of its worktrees.
      const tab = existingProjectStore(tabOf(projectId)) ?? store
      items.push({ id: 'terminal', label: 'Open in Terminal', onSelect: () => background('openTerminal', openTerminal(tab, folder, projectId)) })
    }
    items.push({ kind: 'separator', id: 's1' })
    items.push(
      { id: 'copy-path', label: 'Copy Path', onSelect: () => background('copyPath', copyPath(store, path, false)) },
      { id: 'copy-rel', label: 'Copy Relative Path', onSelect: () => background('copyPath', copyPath(store, path, true)) },
    )
    if (canReveal) items.push({ id: 'reveal', label: 'Reveal in File Manager', onSelect: () => background('revealInOs', revealInOs(store, path)) })
    if (entry) {
      items.push(
        { kind: 'separator', id: 's2' },
        { id: 'rename', label: 'Rename…', shortcut: 'F2', onSelect: () => background('renameEntry', renameEntry(store, path)) },
        {
          id: 'delete',
          label: 'Delete…',
          shortcut: formatShortcut('Delete'),
          danger: true,
          onSelect: () => background('deleteEntry', deleteEntry(store, path, isDir)),
        },
      )
    }
    return items
  }

  const createNew = async (folder: string, kind: 'file' | 'dir'): Promise<void> => {
    const created = await createInFolder(store, folder, kind)
    if (created && kind === 'file') openFile(store, created)
  }

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    const state = store.getState()
    const current = rows[focusedIndex]
    const entry = current?.kind === 'entry' ? current : null
    const step = (from: number, delta: 1 | -1): void => {
      for (let i = from + delta; i >= 0 && i < rows.length; i += delta) {
        if (rows[i]?.kind === 'entry') return focusIndex(i)
      }
    }
    switch (e.key) {
      case 'ArrowDown':
        step(focusedIndex, 1)
        break
      case 'ArrowUp':
        step(focusedIndex < 0 ? rows.length : focusedIndex, -1)
        break
      case 'Home':
        step(-1, 1)
        break
      case 'End':
        step(rows.length, -1)
        break
      case 'PageDown':
      case 'PageUp': {
        const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? 200) / ROW_HEIGHT) - 1)
        const target = Math.max(0, Math.min(rows.length - 1, focusedIndex + (e.key === 'PageDown' ? page : -page)))
        if (rows[target]?.kind === 'entry') focusIndex(target)
        else step(target, e.key === 'PageDown' ? -1 : 1)
        break
      }
      case 'ArrowRight':
        if (!entry?.isDir) return
        if (!entry.expanded) state.setExpanded(entry.entry.path, true)
        else step(focusedIndex, 1)
        break
      case 'ArrowLeft':
        if (!entry) return
        if (entry.isDir && entry.expanded) state.setExpanded(entry.entry.path, false)
        else if (parentOf(entry.entry.path) !== '' || entry.depth > 0) focusIndex(indexOf(parentOf(entry.entry.path)))
        break
      case 'Enter':
      case ' ':
        if (entry) activate(entry)
        break
      case 'F2':
        if (entry) background('renameEntry', renameEntry(store, entry.entry.path))
        break
      case 'Delete':
        if (entry) background('deleteEntry', deleteEntry(store, entry.entry.path, entry.isDir))
        break
      case 'ContextMenu': {
        const el = entry ? document.getElementById(domId(projectId, focusedIndex)) : null
        const box = el?.getBoundingClientRect() ?? scroller.current?.getBoundingClientRect()
        setMenu({ x: (box?.left ?? 0) + 24, y: (box?.bottom ?? 0) - 2, row: entry })
        break
      }
      default: {
        // Type a name to jump to it (as in VS Code's explorer).
        if (e.key.length !== 1 || e.ctrlKey || e.metaKey || e.altKey) return
        const now = Date.now()
        const ta = typeahead.current
        ta.text = now - ta.at > TYPEAHEAD_MS ? e.key.toLowerCase() : ta.text + e.key.toLowerCase()
        ta.at = now
        const start = ta.text.length === 1 ? focusedIndex + 1 : Math.max(focusedIndex, 0)
        for (let k = 0; k < rows.length; k++) {
          const i = (start + k) % rows.length
          const r = rows[i]
          if (r?.kind === 'entry' && r.entry.name.toLowerCase().startsWith(ta.text)) {
            focusIndex(i)
            break
          }
        }
      }
    }
    e.preventDefault()
    e.stopPropagation()
  }

  return (
    <div
      ref={scroller}
      className="tree"
      role="tree"
      aria-label="Files"
      tabIndex={0}
      aria-activedescendant={focusedIndex >= 0 ? domId(projectId, focusedIndex) : undefined}
      data-testid="file-tree"
      onKeyDown={onKeyDown}
      onContextMenu={(e) => openMenu(null, e)}
    >
      <div className="tree-inner" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index] as TreeRowData
          const path = row.kind === 'entry' ? row.entry.path : null
          return (
            <div key={row.kind === 'entry' ? row.entry.path : row.key} className="tree-slot" style={{ transform: `translateY(${item.start}px)` }}>
              <Row
                row={row}
                focused={path !== null && path === focused}
                git={path === null ? undefined : gitDecorationOf(decorations, path)}
                domId={domId(projectId, item.index)}
                onActivate={activate}
                onMenu={openMenu}
              />
            </div>
          )
        })}
      </div>
      {menu && <ContextMenu x={menu.x} y={menu.y} items={menuItems(menu.row)} onClose={() => setMenu(null)} label="File actions" />}
    </div>
  )
}

function domId(projectId: string, index: number): string {
  return `tree-${projectId}-${index}`
}
