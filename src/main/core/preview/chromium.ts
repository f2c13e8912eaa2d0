import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'
import { PreviewErrorNames, previewError } from './errors'

const NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome', 'microsoft-edge']
const MAC_APPS = [
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
]

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'EACCES') return false
    throw error
  }
}

/**
 * The Chromium the preview tools drive: `HOTARU_CHROMIUM`, else the `preview.chromium` config key,
 * else the first Chromium or Chrome on PATH (and the usual app bundles on macOS).
 */
export function findChromium(options: { env?: NodeJS.ProcessEnv; configured?: string; platform?: NodeJS.Platform } = {}): string {
  const env = options.env ?? process.env
  for (const [where, path] of [
    ['HOTARU_CHROMIUM', env.HOTARU_CHROMIUM],
    ['preview.chromium', options.configured],
  ] as const) {
    if (!path) continue
    if (!executable(path)) throw previewError(PreviewErrorNames.NoBrowser, `${where} names ${path}, which is not an executable file`)
    return path
  }
  const dirs = (env.PATH ?? '').split(delimiter).filter(Boolean)
  const suffix = (options.platform ?? process.platform) === 'win32' ? '.exe' : ''
  for (const name of NAMES) {
    for (const dir of dirs) {
      const path = join(dir, name + suffix)
      if (executable(path)) return path
    }
  }
  if ((options.platform ?? process.platform) === 'darwin') {
    const app = MAC_APPS.find(executable)
    if (app) return app
  }
  throw previewError(
    PreviewErrorNames.NoBrowser,
    `no Chromium or Chrome found on PATH to drive the preview: install one, or name it with HOTARU_CHROMIUM or the preview.chromium config key`,
  )
}
