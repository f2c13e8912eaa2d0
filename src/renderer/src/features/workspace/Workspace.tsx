import { useEffect, type ReactNode } from 'react'
import { useShallow } from 'zustand/react/shallow'
import { projectStoreFor } from '../../stores/project'
import { useWorkspace } from '../../stores/workspace'
import { CommandPalette, installKeybindings } from '../commands'
import { DialogHost } from '../dialogs'
import { QuickOpen } from '../search'
import { Welcome } from '../welcome'
import { installWorkspaceCommands } from './commands'
import { DropOverlay } from './DropOverlay'
import { OpenPathDialog } from './OpenPathDialog'
import { ProjectView } from './ProjectView'

export interface WorkspaceProps {
  /**
   * Content of a project's right-hand panel (the agent chat). Omit it and the
   * project view has no right-hand panel at all.
   */
  renderRight?: (projectId: string) => ReactNode
}

/** All open project tabs (only the active one visible), or the welcome page; plus the app-wide overlays. */
export function Workspace({ renderRight }: WorkspaceProps) {
  const bridge = useWorkspace((s) => s.bridge)
  const projects = useWorkspace(useShallow((s) => s.projects))
  const activeId = useWorkspace((s) => s.activeId)

  useEffect(() => {
    const removeCommands = installWorkspaceCommands()
    const removeKeys = installKeybindings()
    return () => {
      removeKeys()
      removeCommands()
    }
  }, [])

  return (
    <>
      {bridge &&
        projects.map((project) => (
          <ProjectView
            key={project.id}
            project={project}
            store={projectStoreFor(bridge, project.id, project.root)}
            active={project.id === activeId}
            right={renderRight ? renderRight(project.id) : null}
          />
        ))}
      {activeId === null && <Welcome />}
      <DropOverlay />
      <OpenPathDialog />
      <CommandPalette />
      <QuickOpen />
      <DialogHost />
    </>
  )
}
