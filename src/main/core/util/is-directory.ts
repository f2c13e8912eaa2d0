import { statSync } from 'node:fs'

/** Whether `abs` is a directory (through symlinks); false when it or a parent does not exist, other errors thrown. */
export function isDirectory(abs: string): boolean {
  try {
    return statSync(abs).isDirectory()
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return false
    throw error
  }
}
