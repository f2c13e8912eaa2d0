import { homedir } from 'node:os'
import { join } from 'node:path'

/**
 * The app data directory outside Electron. `HOTARU_DATA_DIR` wins; otherwise the
 * same folder Electron's `app.getPath('userData')` gives the desktop app, so the
 * CLI, `hotaru serve` and the app share one database.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.HOTARU_DATA_DIR) return env.HOTARU_DATA_DIR
  const home = env.HOME ?? homedir()
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Hotaru')
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Hotaru')
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'Hotaru')
}
