import { existsSync } from 'node:fs'
import { join } from 'node:path'

/**
 * better-sqlite3 built for Electron's ABI, kept apart from the Node build that
 * tests and the CLI load (see scripts/electron-native.mjs). Packaged apps carry
 * it unpacked from the asar archive.
 */
export function electronSqliteBinding(appPath: string, resourcesPath: string): string | undefined {
  const candidates = [
    join(resourcesPath, 'native', 'better_sqlite3.node'),
    join(appPath, 'build', 'native', 'electron', 'better_sqlite3.node'),
  ]
  return candidates.find((file) => existsSync(file))
}
