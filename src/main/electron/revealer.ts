import { shell } from 'electron'
import type { ItemRevealer } from '../core/project/reveal'

/** "Reveal in file manager": Finder, Explorer or the desktop's file manager. */
export const electronRevealer: ItemRevealer = {
  reveal(absolutePath) {
    shell.showItemInFolder(absolutePath)
  },
}
