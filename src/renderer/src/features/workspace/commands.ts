import { existingProjectStore, type ProjectStore } from '../../stores/project'
import { useWorkspace, workspace } from '../../stores/workspace'
import { activeFolderStore } from '../../stores/shown-folder'
import { projectsOfTab } from '../../stores/chat-scope'
import { registerCommands, type Command } from '../commands'
import { closeFile, documentsFor, saveActive, saveAll, unsavedFiles } from '../editor'
import { createInFolder } from '../files'
import { closeTerminal, openTerminal } from '../terminal'
import { confirmDialog } from '../dialogs'
import { isDirEntry } from '../../lib/collate'
import { parentOf } from '../../lib/paths'
import { background } from '../../lib/background'

/** The folder on screen (a worktree's while its chat is shown): file commands act on its editor and tree. */
function active(): ProjectStore | undefined {
  return activeFolderStore()
}

const hasProject = (): boolean => active() !== undefined
const hasFile = (): boolean => active()?.getState().activeFile != null

/** The tab's own store: its panels and terminals, whichever folder it shows. */
function tab(): ProjectStore | undefined {
  const id = useWorkspace.getState().activeId
  return id ? existingProjectStore(id) : undefined
}

function withProject(run: (store: ProjectStore) => void | Promise<void>): () => void | Promise<void> {
  return () => {
    const store = active()
    return store ? run(store) : undefined
  }
}

function withTab(run: (store: ProjectStore) => void | Promise<void>): () => void | Promise<void> {
  return () => {
    const store = tab()
    return store ? run(store) : undefined
  }
}

/**
 * Closes a project tab, asking first when it has unsaved files; with `confirm` (a keyboard shortcut, easy to
 * press by mistake) it always asks, and says when a turn is running there.
 */
export async function closeProjectTab(projectId: string, options: { confirm?: boolean } = {}): Promise<void> {
  // The editors of its worktrees go with the tab too.
  const unsaved = projectsOfTab(projectId).flatMap((id) => {
    const store = existingProjectStore(id)
    return store ? unsavedFiles(store) : []
  })
  if (unsaved.length > 0) {
    const ok = await confirmDialog({
      title: 'Unsaved changes',
      message: `${unsaved.length === 1 ? `${unsaved[0]} has` : `${unsaved.length} files have`} unsaved changes. Close the project and lose them?`,
      confirmLabel: 'Discard and close',
      danger: true,
    })
    if (!ok) return
  } else if (options.confirm) {
    const { projects, running } = useWorkspace.getState()
    const name = projects.find((p) => p.id === projectId)?.name ?? 'this project'
    const busy = (running[projectId] ?? 0) > 0
    const ok = await confirmDialog({
      title: 'Close project tab',
      message: busy ? `The agent is working in ${name}. Close the tab and stop it?` : `Close the ${name} tab?`,
      confirmLabel: busy ? 'Stop and close' : 'Close',
      danger: busy,
    })
    if (!ok) return
  }
  await workspace.close(projectId)
}

function focusTree(): void {
  document.querySelector<HTMLElement>('.project:not([hidden]) [data-testid="file-tree"]')?.focus()
}

/** The workspace's built-in actions: each appears in the palette with its shortcut. */
export function installWorkspaceCommands(): () => void {
  const commands: Command[] = [
    { id: 'palette.show', category: 'View', title: 'Show All Commands', keys: 'Mod+Shift+P', run: () => workspace.setPaletteOpen(!useWorkspace.getState().paletteOpen) },
    { id: 'palette.showF1', category: 'View', title: 'Show All Commands (F1)', keys: 'F1', run: () => workspace.setPaletteOpen(true) },
    // Mod+P: in a browser (serve) this would print; the capture-phase handler keeps it for Quick Open.
    { id: 'file.quickOpen', category: 'File', title: 'Go to File…', keys: 'Mod+P', when: hasProject, run: () => workspace.setQuickOpen(!useWorkspace.getState().quickOpen) },
    {
      id: 'search.findInFiles',
      category: 'Search',
      title: 'Find in Files',
      keys: 'Mod+Shift+F',
      when: hasProject,
      run: withProject((s) => {
        s.getState().setSidebarMode('search')
        requestAnimationFrame(() => document.querySelector<HTMLInputElement>('.project:not([hidden]) .search-panel .search-input')?.select())
      }),
    },
    { id: 'project.open', category: 'Project', title: 'Open Folder…', keys: 'Mod+O', run: () => workspace.pickFolder() },
    // Mod+W closes the active editor tab; only with none open does it reach the project tab, which asks first.
    {
      id: 'file.close',
      category: 'File',
      title: 'Close Editor',
      keys: 'Mod+W',
      when: hasFile,
      run: withProject((s) => {
        const path = s.getState().activeFile
        if (path) background('closeFile', closeFile(s, path))
      }),
    },
    {
      id: 'project.close',
      category: 'Project',
      title: 'Close Project Tab',
      keys: 'Mod+W',
      when: hasProject,
      run: () => {
        const id = useWorkspace.getState().activeId
        return id ? closeProjectTab(id, { confirm: true }) : undefined
      },
    },
    { id: 'project.next', category: 'Project', title: 'Next Project Tab', keys: 'Ctrl+Tab', run: () => workspace.cycleTab(1) },
    { id: 'project.previous', category: 'Project', title: 'Previous Project Tab', keys: 'Ctrl+Shift+Tab', run: () => workspace.cycleTab(-1) },
    { id: 'project.welcome', category: 'Project', title: 'Show Welcome and Recent Projects', run: () => workspace.activate(null) },
    { id: 'file.save', category: 'File', title: 'Save', keys: 'Mod+S', when: hasFile, run: withProject((s) => background('saveActive', saveActive(s))) },
    { id: 'file.saveAll', category: 'File', title: 'Save All', keys: 'Mod+Alt+S', when: hasProject, run: withProject((s) => saveAll(s)) },
    {
      id: 'file.new',
      category: 'File',
      title: 'New File…',
      keys: 'Mod+Alt+N',
      when: hasProject,
      run: withProject(async (s) => {
        const created = await createInFolder(s, folderForNew(s), 'file')
        if (created) documentsFor(s).open(created)
      }),
    },
    { id: 'file.newFolder', category: 'File', title: 'New Folder…', when: hasProject, run: withProject((s) => background('createInFolder', createInFolder(s, folderForNew(s), 'dir'))) },
    {
      id: 'file.revert',
      category: 'File',
      title: 'Revert File (Reload from Disk)',
      when: hasFile,
      run: withProject((s) => {
        const path = s.getState().activeFile
        if (path) background('reload', documentsFor(s).reload(path))
      }),
    },
    {
      id: 'file.compare',
      category: 'File',
      title: 'Compare Active File with Disk',
      when: hasFile,
      run: withProject((s) => {
        const path = s.getState().activeFile
        if (path) background('compareWithDisk', documentsFor(s).compareWithDisk(path))
      }),
    },
    {
      id: 'view.diffInline',
      category: 'View',
      title: 'Toggle Inline / Side-by-Side Diff',
      when: hasProject,
      run: withProject((s) => s.getState().setView({ diffSideBySide: !s.getState().view.diffSideBySide })),
    },
    { id: 'view.sidebar', category: 'View', title: 'Toggle File Tree', keys: 'Mod+B', when: hasProject, run: withTab((s) => s.getState().setView({ sidebar: !s.getState().view.sidebar })) },
    { id: 'view.right', category: 'View', title: 'Toggle Agent Panel', keys: 'Mod+Alt+B', when: hasProject, run: withTab((s) => s.getState().setView({ right: !s.getState().view.right })) },
    { id: 'view.terminal', category: 'View', title: 'Toggle Terminal Panel', keys: 'Ctrl+`', when: hasProject, run: withTab((s) => toggleTerminal(s)) },
    {
      id: 'files.focus',
      category: 'Files',
      title: 'Focus File Tree',
      keys: 'Mod+Shift+E',
      when: hasProject,
      run: withTab((s) => {
        s.getState().setView({ sidebar: true })
        requestAnimationFrame(focusTree)
      }),
    },
    {
      id: 'files.reveal',
      category: 'Files',
      title: 'Reveal Active File in Tree',
      when: hasFile,
      run: withProject(async (s) => {
        const path = s.getState().activeFile
        if (!path) return
        tab()?.getState().setView({ sidebar: true })
        await s.getState().revealInTree(path)
        requestAnimationFrame(focusTree)
      }),
    },
    { id: 'files.collapse', category: 'Files', title: 'Collapse All Folders', when: hasProject, run: withProject((s) => s.getState().collapseAll()) },
    {
      id: 'files.refresh',
      category: 'Files',
      title: 'Refresh File Tree',
      when: hasProject,
      run: withProject(async (s) => {
        await s.getState().reloadLoaded()
        await s.getState().refreshGit()
      }),
    },
    { id: 'terminal.new', category: 'Terminal', title: 'New Terminal', keys: 'Ctrl+Shift+`', when: hasProject, run: withTab((s) => openTerminal(s)) },
    {
      id: 'terminal.kill',
      category: 'Terminal',
      title: 'Kill Active Terminal',
      when: () => tab()?.getState().activeTerminal != null,
      run: withTab((s) => {
        const id = s.getState().activeTerminal
        if (id) background('closeTerminal', closeTerminal(s, id))
      }),
    },
  ]
  return registerCommands(commands)
}

function folderForNew(store: ProjectStore): string {
  const { focused, dirs } = store.getState()
  if (!focused) return ''
  // The focused folder itself, or the folder of the focused file.
  const entry = dirs[parentOf(focused)]?.entries?.find((e) => e.path === focused)
  return entry && isDirEntry(entry) ? focused : parentOf(focused)
}

function toggleTerminal(store: ProjectStore): void | Promise<void> {
  const state = store.getState()
  if (state.view.terminal) {
    state.setView({ terminal: false })
    return
  }
  if (state.terminals.length === 0) return openTerminal(store)
  state.setView({ terminal: true })
}
