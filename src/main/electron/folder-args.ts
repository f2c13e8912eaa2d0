import { statSync } from 'node:fs'
import { resolve } from 'node:path'

/**
 * The folders named on a command line (`hotaru ~/projects/app`, a second launch,
 * a file manager's "Open with"). `argv` is the whole command line: the executable
 * first, then, when run as `electron .` (`defaultApp`), the app's own path.
 * Switches (Chromium adds some) and anything that is not a directory are skipped.
 */
export function folderArguments(argv: readonly string[], cwd: string, defaultApp: boolean): string[] {
  const folders: string[] = []
  for (const arg of argv.slice(defaultApp ? 2 : 1)) {
    if (arg.startsWith('-')) continue
    const path = resolve(cwd, arg)
    if (statSync(path, { throwIfNoEntry: false })?.isDirectory() && !folders.includes(path)) folders.push(path)
  }
  return folders
}

/** Whether a path handed over by macOS (`open-file`: dock drop, Finder "Open with") is a folder to open. */
export function isFolder(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true
}
