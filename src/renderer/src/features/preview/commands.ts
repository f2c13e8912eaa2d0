import type { HotaruBridge } from '@shared/ipc'
import { registerCommands, type Command } from '../commands'
import { activeFolderStore } from '../../stores/shown-folder'
import { useWorkspace } from '../../stores/workspace'
import { setPreviewOpen } from './preview-panel-state'
import { DEVICES, goPreview, previewFor, type DeviceId } from './preview-store'

interface Active {
  bridge: HotaruBridge
  tabId: string
  folderId: string
}

function active(): Active | undefined {
  const { bridge, activeId } = useWorkspace.getState()
  const folder = activeFolderStore()
  if (!bridge || !activeId || !folder) return undefined
  return { bridge, tabId: activeId, folderId: folder.getState().projectId }
}

const hasProject = (): boolean => active() !== undefined
const hasPage = (): boolean => {
  const a = active()
  return a !== undefined && previewFor(a.bridge, a.tabId).getState().open && previewFor(a.bridge, a.folderId).getState().url !== null
}

function with_(run: (a: Active) => void): () => void {
  return () => {
    const a = active()
    if (a) run(a)
  }
}

export function togglePreview(a: Active): void {
  setPreviewOpen(a.bridge, a.tabId, a.folderId, !previewFor(a.bridge, a.tabId).getState().open)
}

function focusAddress(a: Active): void {
  if (!previewFor(a.bridge, a.tabId).getState().open) setPreviewOpen(a.bridge, a.tabId, a.folderId, true)
  requestAnimationFrame(() => document.querySelector<HTMLInputElement>('.project:not([hidden]) [data-testid="preview-address"]')?.select())
}

/** The Preview pane's actions, in the palette and on the keyboard. */
export function installPreviewCommands(): () => void {
  const devices: Command[] = Object.entries(DEVICES).map(([id, device]) => ({
    id: `preview.device.${id}`,
    category: 'Preview',
    title: `Show the Page as ${device.label}`,
    when: hasProject,
    run: with_((a) => {
      previewFor(a.bridge, a.folderId).setState({ device: id as DeviceId })
      if (!previewFor(a.bridge, a.tabId).getState().open) setPreviewOpen(a.bridge, a.tabId, a.folderId, true)
    }),
  }))
  const commands: Command[] = [
    { id: 'preview.toggle', category: 'Preview', title: 'Toggle Preview', keys: 'Mod+Alt+P', when: hasProject, run: with_(togglePreview) },
    { id: 'preview.focusAddress', category: 'Preview', title: 'Go to Address in Preview…', when: hasProject, run: with_(focusAddress) },
    { id: 'preview.reload', category: 'Preview', title: 'Reload Preview', when: hasPage, run: with_((a) => goPreview(a.folderId, 'reload')) },
    { id: 'preview.back', category: 'Preview', title: 'Preview: Back', when: hasPage, run: with_((a) => goPreview(a.folderId, 'back')) },
    { id: 'preview.forward', category: 'Preview', title: 'Preview: Forward', when: hasPage, run: with_((a) => goPreview(a.folderId, 'forward')) },
    {
      id: 'preview.console',
      category: 'Preview',
      title: 'Toggle Preview Console',
      when: hasPage,
      run: with_((a) => previewFor(a.bridge, a.folderId).setState((s) => ({ consoleOpen: !s.consoleOpen }))),
    },
    ...devices,
  ]
  return registerCommands(commands)
}
