import { BrowserWindow, dialog } from 'electron'
import type { FolderPicker } from '../core/app/folder-picker'

export const electronFolderPicker: FolderPicker = {
  async pickFolder() {
    const parent = BrowserWindow.getFocusedWindow()
    const options: Electron.OpenDialogOptions = { title: 'Open Folder', properties: ['openDirectory', 'createDirectory'] }
    const result = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options)
    return result.canceled ? null : (result.filePaths[0] ?? null)
  },
}
