import { useEffect, useRef, useState, type ReactNode } from 'react'
import { Group, Panel, Separator, type PanelImperativeHandle, type PanelSize } from 'react-resizable-panels'
import { useStore } from 'zustand'
import type { ProjectInfo } from '@shared/schema/project'
import type { Worktree } from '@shared/schema/worktree'
import { ProjectStoreContext, useProject, useProjectStore, type ProjectStore } from '../../stores/project'
import { carryOverTabs, shownWorktree, useShownFolderStore } from '../../stores/shown-folder'
import { useChatScope } from '../../stores/chat-scope'
import type { LayoutView } from '../../stores/project-layout'
import { documentsFor, EditorArea, openFile } from '../editor'
import { createInFolder, FileTree } from '../files'
import { BottomPanel } from './BottomPanel'
import { openSettings } from '../settings'
import { RestrictedBadge } from '../trust'
import { SearchPanel } from '../search'
import { PreviewPanel, usePreviewPanel } from '../preview'
import { initialCenterLayout, initialMainLayout } from './initial-layout'
import { MissingProject } from './MissingProject'
import { useWorkspace } from '../../stores/workspace'
import { background } from '../../lib/background'
import { AreaBoundary } from '../failures'
import { inlineReviewOverlay, proposedEditOverlay } from '../review'
import { Icon } from '../../components/Icon'
import { editorAgentOverlay } from '../editor-agent'
import type { EditorOverlay } from '../editor'

/** What the editor shows besides the file: the agent's changes and proposed edits inline, and its actions on a selection. */
const editorOverlay: EditorOverlay = (editor, monaco, path) => (
  <>
    {inlineReviewOverlay(editor, monaco, path)}
    {proposedEditOverlay(editor, monaco, path)}
    {editorAgentOverlay(editor, monaco, path)}
  </>
)

/** Keeps a collapsible panel in step with its on/off flag in the layout, both ways. */
function useCollapsible(flag: keyof Pick<LayoutView, 'sidebar' | 'terminal' | 'right'>, openSize: string) {
  const store = useProjectStore()
  const shown = useProject((s) => s.view[flag])
  const ref = useRef<PanelImperativeHandle | null>(null)
  useEffect(() => {
    const panel = ref.current
    if (!panel) return
    if (shown && panel.isCollapsed()) {
      panel.expand()
      // A panel that started closed has no earlier size to return to: give it a useful one.
      if (panel.getSize().asPercentage < parseFloat(openSize) / 2) panel.resize(openSize)
    }
    if (!shown && !panel.isCollapsed()) panel.collapse()
  }, [shown, openSize])
  // Dragging a panel shut (or open) flips the flag, so the toggle command and the layout agree.
  const onResize = (size: PanelSize): void => {
    const open = size.asPercentage > 0.5
    if (store.getState().view[flag] !== open) store.getState().setView({ [flag]: open })
  }
  return { ref, onResize, shown }
}

/** Names the folder the tree shows: the project, or the worktree (and its branch) whose chat is on screen. */
function SidebarHead({ project, worktree }: { project: ProjectInfo; worktree: Worktree | undefined }) {
  const store = useProjectStore()
  const branch = useProject((s) => (s.git?.repo ? s.git.branch : null))
  const newFile = async (): Promise<void> => {
    const created = await createInFolder(store, '', 'file')
    if (created) openFile(store, created)
  }
  return (
    <header
      className="sidebar-head"
      title={worktree ? `Worktree ${worktree.name} of ${project.name}: ${worktree.path}` : project.root}
      data-testid="sidebar-head"
      data-worktree={worktree?.name ?? ''}
    >
      <span className="sidebar-title">
        {worktree ? (
          <>
            <Icon name="git-branch" label="worktree" /> {worktree.name}
          </>
        ) : (
          project.name
        )}
      </span>
      <RestrictedBadge projectId={project.id} onReview={() => openSettings('trust')} />
      {branch && (
        <span className="branch" title={`git branch ${branch}`}>
          {branch}
        </span>
      )}
      <span className="sidebar-actions">
        <button type="button" className="icon" aria-label="New file" title="New File…" onClick={() => background('newFile', newFile())}>
          <Icon name="new-file" />
        </button>
        <button type="button" className="icon" aria-label="New folder" title="New Folder…" onClick={() => background('createInFolder', createInFolder(store, '', 'dir'))}>
          <Icon name="new-folder" />
        </button>
        <button type="button" className="icon" aria-label="Collapse folders" title="Collapse All" onClick={() => store.getState().collapseAll()}>
          <Icon name="collapse-all" />
        </button>
      </span>
    </header>
  )
}

/** The left sidebar: the file tree, or find in files (Mod+Shift+F), switched by the two tabs on top. */
function Sidebar({ project, worktree }: { project: ProjectInfo; worktree: Worktree | undefined }) {
  const mode = useProject((s) => s.sidebarMode)
  const setMode = useProject((s) => s.setSidebarMode)
  return (
    <aside className="sidebar" aria-label={mode === 'files' ? 'Explorer' : 'Search'}>
      <div className="sidebar-modes" role="tablist" aria-label="Sidebar">
        <button type="button" role="tab" aria-selected={mode === 'files'} className={mode === 'files' ? 'on' : ''} onClick={() => setMode('files')}>
          Files
        </button>
        <button type="button" role="tab" aria-selected={mode === 'search'} className={mode === 'search' ? 'on' : ''} onClick={() => setMode('search')} title="Find in Files (Ctrl/Cmd+Shift+F)">
          Search
        </button>
      </div>
      {mode === 'files' ? (
        <>
          <SidebarHead project={project} worktree={worktree} />
          <FileTree />
        </>
      ) : (
        <SearchPanel />
      )}
    </aside>
  )
}

function Layout({ project, right }: { project: ProjectInfo; right: ReactNode | null }) {
  const store = useProjectStore()
  const view = useProject((s) => s.view)
  const sidebar = useCollapsible('sidebar', '20%')
  const terminal = useCollapsible('terminal', '32%')
  const rightPanel = useCollapsible('right', '28%')
  const previewPanel = usePreviewPanel('34%')
  // The tree, search and editor show the folder of the chat on screen; panels and terminals stay the tab's.
  const folder = useShownFolderStore()
  const worktree = useChatScope((s) => shownWorktree(project.id, s))
  useEffect(() => {
    documentsFor(folder)
  }, [folder])
  useEffect(() => carryOverTabs(store, folder), [store, folder])
  // Saved sizes are read once, at mount: later changes come from the panels themselves.
  const [initial] = useState(() => ({ main: initialMainLayout(view, right !== null), center: initialCenterLayout(view) }))
  return (
    <Group
      orientation="horizontal"
      className="layout-main"
      id={`main-${project.id}`}
      defaultLayout={initial.main}
      onLayoutChanged={(layout, meta) => meta.isUserInteraction && store.getState().setPanels('main', layout)}
    >
      <Panel
        id="tree"
        defaultSize="20%"
        minSize={160}
        collapsible
        collapsedSize={0}
        panelRef={sidebar.ref}
        onResize={sidebar.onResize}
      >
        <ProjectStoreContext.Provider value={folder}>
          <AreaBoundary area="sidebar">
            <Sidebar project={project} worktree={worktree} />
          </AreaBoundary>
        </ProjectStoreContext.Provider>
      </Panel>
      <Separator className="separator vertical" />
      <Panel id="center" minSize={240}>
        <Group
          orientation="vertical"
          className="layout-center"
          id={`center-${project.id}`}
          defaultLayout={initial.center}
          onLayoutChanged={(layout, meta) => meta.isUserInteraction && store.getState().setPanels('center', layout)}
        >
          <Panel id="editor" minSize={120}>
            <ProjectStoreContext.Provider value={folder}>
              <AreaBoundary area="editor">
                <EditorArea overlay={editorOverlay} />
              </AreaBoundary>
            </ProjectStoreContext.Provider>
          </Panel>
          <Separator className="separator horizontal" />
          <Panel
            id="terminal"
            defaultSize="32%"
            minSize={90}
            collapsible
            collapsedSize={0}
            panelRef={terminal.ref}
            onResize={terminal.onResize}
          >
            <BottomPanel />
          </Panel>
        </Group>
      </Panel>
      <Separator className="separator vertical" />
      <Panel id="preview" defaultSize="0%" minSize={280} collapsible collapsedSize={0} panelRef={previewPanel.ref} onResize={previewPanel.onResize}>
        <AreaBoundary area="Preview">
          <PreviewPanel />
        </AreaBoundary>
      </Panel>
      {right !== null && <Separator className="separator vertical" />}
      {right !== null && (
        <Panel
          id="right"
          defaultSize="28%"
          minSize={260}
          collapsible
          collapsedSize={0}
          panelRef={rightPanel.ref}
          onResize={rightPanel.onResize}
        >
          <aside className="right-panel" aria-label="Agent" data-testid="right-panel">
            <AreaBoundary area="chat">{right}</AreaBoundary>
          </aside>
        </Panel>
      )}
    </Group>
  )
}

interface ProjectViewProps {
  project: ProjectInfo
  store: ProjectStore
  active: boolean
  /** Content of the right-hand panel (the agent chat); no panel when null. */
  right: ReactNode | null
}

/**
 * One project tab. Every open tab stays mounted (hidden when inactive), so its
 * editor, terminals and scroll positions survive switching tabs.
 */
export function ProjectView({ project, store, active, right }: ProjectViewProps) {
  // Panels mount once the saved layout is known, with its sizes: no jump after load.
  const ready = useStore(store, (s) => s.layoutReady)
  const missing = useWorkspace((s) => s.missing[project.id] === true)
  useEffect(() => {
    // Open files of the saved layout load even before the editor is shown.
    documentsFor(store)
  }, [store])
  return (
    <ProjectStoreContext.Provider value={store}>
      <div className="project" hidden={!active} data-testid="project-view" data-project-id={project.id} data-active={active} data-missing={missing}>
        {missing && <MissingProject project={project} />}
        {ready ? (
          <AreaBoundary area="project tab">
            <Layout project={project} right={right} />
          </AreaBoundary>
        ) : null}
      </div>
    </ProjectStoreContext.Provider>
  )
}
