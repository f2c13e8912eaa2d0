import { Menu, type MenuItemConstructorOptions } from 'electron'

export interface MenuActions {
  openFolder(): void
}

/** The native menu with the platform's standard roles and shortcuts. */
export function installMenu(actions: MenuActions): void {
  const isMac = process.platform === 'darwin'
  const template: MenuItemConstructorOptions[] = [
    ...(isMac ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [
        { label: 'Open Folder…', accelerator: 'CmdOrCtrl+O', click: () => actions.openFolder() },
        { type: 'separator' },
        // Ctrl/Cmd+W closes the project tab (handled by the page), so the window takes Shift as well.
        { role: 'close', accelerator: 'CmdOrCtrl+Shift+W' },
        ...(isMac ? [] : [{ role: 'quit' as const }]),
      ],
    },
    { role: 'editMenu' },
    { role: 'viewMenu' },
    // Off the Mac, Ctrl+M belongs to the editor (Tab moves focus), so Minimize there has no shortcut.
    { label: 'Window', submenu: [isMac ? { role: 'minimize' as const } : { label: 'Minimize', click: (_item, window) => window?.minimize() }, { role: 'zoom' }, ...(isMac ? [{ role: 'front' as const }] : [])] },
  ]
  Menu.setApplicationMenu(Menu.buildFromTemplate(template))
}
