import { useEffect } from 'react'
import type { DirEntry } from '@shared/schema/fs'
import { useProject } from '../../stores/project'

function isDir(entry: DirEntry): boolean {
  return entry.kind === 'dir' || entry.targetKind === 'dir'
}

function Directory({ path, depth }: { path: string; depth: number }) {
  const dir = useProject((s) => s.dirs[path])
  const load = useProject((s) => s.load)
  useEffect(() => {
    if (!dir) void load(path)
  }, [dir, load, path])
  if (!dir || (dir.loading && !dir.entries)) return <div className="tree-note" style={{ paddingLeft: depth * 12 + 8 }}>Loading…</div>
  if (dir.error) return <div className="tree-note error" style={{ paddingLeft: depth * 12 + 8 }}>{dir.error}</div>
  if (dir.entries?.length === 0) return <div className="tree-note" style={{ paddingLeft: depth * 12 + 8 }}>Empty folder</div>
  return (
    <>
      {dir.entries?.map((entry) => <Entry key={entry.path} entry={entry} depth={depth} />)}
    </>
  )
}

function Entry({ entry, depth }: { entry: DirEntry; depth: number }) {
  const expanded = useProject((s) => s.expanded[entry.path] ?? false)
  const selected = useProject((s) => s.selected === entry.path)
  const toggle = useProject((s) => s.toggle)
  const openFile = useProject((s) => s.openFile)
  const dir = isDir(entry)
  const activate = (): void => {
    if (dir) toggle(entry.path)
    else void openFile(entry.path)
  }
  return (
    <>
      <div
        role="treeitem"
        aria-expanded={dir ? expanded : undefined}
        aria-selected={selected}
        tabIndex={0}
        data-path={entry.path}
        className={`tree-row${entry.ignored ? ' ignored' : ''}${selected ? ' selected' : ''}`}
        style={{ paddingLeft: depth * 12 + 8 }}
        onClick={activate}
        onKeyDown={(e) => {
          if (e.key === 'Enter') activate()
        }}
      >
        <span className="twisty" aria-hidden>
          {dir ? (expanded ? '▾' : '▸') : ''}
        </span>
        <span className={dir ? 'dir-name' : 'file-name'}>{entry.name}</span>
        {entry.kind === 'symlink' && <span className="badge" title="symbolic link">↪</span>}
      </div>
      {dir && expanded && <Directory path={entry.path} depth={depth + 1} />}
    </>
  )
}

/** A lazy, minimal file tree of the project (the full tree comes with the workspace UI). */
export function FileTree() {
  return (
    <div className="tree" role="tree" aria-label="Files" data-testid="file-tree">
      <Directory path="" depth={0} />
    </div>
  )
}
