import { execFile } from 'node:child_process'
import { mkdirSync, writeFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { loginShellPathOnce } from '../mcp/shell-path'

/** npm may take a while on a slow network; past this the install is given up. */
const INSTALL_TIMEOUT_MS = 5 * 60_000

/**
 * Installs npm-distributed language servers into the app's data dir (`<dataDir>/lsp`),
 * never into the project, with the user's own npm and its registry settings.
 */
export async function installPackages(dir: string, packages: string[], env: Readonly<Record<string, string | undefined>>): Promise<void> {
  mkdirSync(dir, { recursive: true })
  const manifest = join(dir, 'package.json')
  if (!existsSync(manifest)) writeFileSync(manifest, `${JSON.stringify({ name: 'hotaru-language-servers', private: true }, null, 2)}\n`)
  const path = (await loginShellPathOnce(env)).path
  const childEnv: Record<string, string> = {}
  for (const [key, value] of Object.entries(env)) if (value !== undefined) childEnv[key] = value
  childEnv.PATH = path
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  await new Promise<void>((resolve, reject) => {
    execFile(
      npm,
      ['install', '--prefix', dir, '--no-audit', '--no-fund', '--loglevel=error', ...packages],
      { env: childEnv, timeout: INSTALL_TIMEOUT_MS, shell: process.platform === 'win32', maxBuffer: 4 * 1024 * 1024 },
      (error, _stdout, stderr) => {
        if (!error) return resolve()
        const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'npm is not on PATH (install Node.js)' : stderr.trim().split('\n').slice(-5).join('\n') || error.message
        reject(new Error(`installing ${packages.join(', ')} failed: ${reason}`))
      },
    )
  })
}
