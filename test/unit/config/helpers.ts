import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { type LoadConfigOptions, loadConfig } from '../../../src/main/core/config'

/**
 * A throwaway world: a home folder, a nested project and an (empty) managed folder,
 * all under one temp dir, so no test ever reads the real `~/.config` or `/etc/hotaru`.
 */
export interface ConfigWorld {
  root: string
  home: string
  project: string
  managed: string
  env: Record<string, string>
  write(relPath: string, content: string | object): string
  load(extra?: Partial<LoadConfigOptions>): ReturnType<typeof loadConfig>
  cleanup(): void
}

export function makeWorld(): ConfigWorld {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'hotaru-config-')))
  const home = join(root, 'home')
  const project = join(root, 'work', 'repo', 'app')
  const managed = join(root, 'managed')
  for (const dir of [home, project, managed]) mkdirSync(dir, { recursive: true })
  const env: Record<string, string> = { HOME: home, HOTARU_MANAGED_CONFIG_DIR: managed }
  return {
    root,
    home,
    project,
    managed,
    env,
    write(relPath, content) {
      const file = join(root, relPath)
      mkdirSync(dirname(file), { recursive: true })
      writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2))
      return file
    },
    load(extra = {}) {
      return loadConfig({ projectDir: project, env, homeDir: home, platform: 'linux', ...extra, trusted: extra.trusted ?? true })
    },
    cleanup() {
      rmSync(root, { recursive: true, force: true })
    },
  }
}

/** Runs `fn`, expecting it to reject, and returns the rejection for assertions. */
export async function rejectionOf(promise: Promise<unknown>): Promise<{ name: string; message: string; data: Record<string, unknown> }> {
  try {
    await promise
  } catch (error) {
    return error as { name: string; message: string; data: Record<string, unknown> }
  }
  throw new Error('expected a rejection')
}
