import { existsSync, realpathSync } from 'node:fs'
import { createInterface } from 'node:readline/promises'
import { resolve } from 'node:path'
import { HotaruError } from '@shared/errors'
import type { Session } from '@shared/schema/session'
import { loadEventCheck } from '../main/core/bus/events'
import { defaultDataDir } from '../main/core/config/paths'
import { createServices, type Services } from '../main/core/services'
import { moveDamagedAside, Storage, StorageErrorNames } from '../main/core/storage'
import { TrustService } from '../main/core/trust/trust-service'
import { CliError } from './errors'

/**
 * Core services for one CLI command, on the shared data dir. `runsTurns`: the command runs the agent, so
 * a project's language servers start with its first turn (listing sessions or checkpoints starts none).
 * A damaged session database is never replaced unasked: at a terminal the user may agree to move it aside
 * (kept for recovery) and go on with an empty one; otherwise the error names the file and the way out.
 */
export async function cliServices(options: { runsTurns?: boolean } = {}): Promise<Services> {
  const checkEvent = await loadEventCheck(process.env)
  const open = (): Services =>
    createServices({
      dataDir: defaultDataDir(),
      transport: 'cli',
      ownProcesses: true,
      lsp: { startWithProject: options.runsTurns === true ? 'first-turn' : false },
      checkEvent,
      onStorageReadOnly: (reason) => process.stderr.write(`warning: ${reason}\n`),
    })
  try {
    return open()
  } catch (error) {
    const damaged = error as Partial<HotaruError>
    if (damaged.name !== StorageErrorNames.Damaged || typeof damaged.data?.path !== 'string' || !process.stdin.isTTY || !process.stderr.isTTY) throw error
    process.stderr.write(`${damaged.message ?? ''}\n`)
    const file = damaged.data.path
    const rl = createInterface({ input: process.stdin, output: process.stderr })
    const answer = (await rl.question(`Move ${file} aside (kept for recovery) and start with an empty session database? [y/N] `)).trim().toLowerCase()
    rl.close()
    if (answer !== 'y' && answer !== 'yes') throw new CliError('the damaged database was left as it is', 1)
    const moved = moveDamagedAside(file)
    process.stderr.write(`Moved it to ${moved}; \`sqlite3 ${moved} .recover\` can often get the sessions back out of it.\n`)
    return open()
  }
}

/** The app's trust decisions alone (no project is opened, nothing starts), for as long as `use` runs. */
export async function withTrust<T>(use: (trust: TrustService) => Promise<T> | T): Promise<T> {
  const storage = Storage.open(defaultDataDir())
  try {
    return await use(new TrustService(storage.trust))
  } finally {
    storage.close()
  }
}

/**
 * Opens the project folder for a command (without adding it to the app's restored tabs). The folder
 * of a worktree opens as that worktree of its main project (its trust, its sessions).
 */
export function openProject(services: Services, dir: string | undefined) {
  try {
    const path = dir ?? process.cwd()
    const parentRoot = worktreeParentOf(services, path)
    if (parentRoot) return services.projects.openFolder(path, { worktreeOf: services.projects.openFolder(parentRoot, { tab: false }) })
    return services.projects.openFolder(path, { tab: false })
  } catch (error) {
    if (error instanceof HotaruError) throw new CliError(error.message, 1)
    throw error
  }
}

/** The main project's folder when `path` is the folder of one of its worktrees. */
function worktreeParentOf(services: Services, path: string): string | undefined {
  let root: string
  try {
    root = realpathSync(resolve(path))
  } catch (error) {
    // A missing folder is reported by openFolder, with the path as given.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  const project = services.storage.projects.byRoot(root)
  const row = project && services.storage.worktrees.byProject(project.id)
  const parent = row && services.storage.projects.byId(row.parentId)
  return parent && existsSync(parent.root) ? parent.root : undefined
}

/** A session by full id or unique id prefix. */
export function findSession(services: Services, id: string): Session {
  const exact = services.sessions.find(id)
  if (exact) return exact
  const matches = services.storage.sessions.sessionsByPrefix(id)
  if (matches.length === 1 && matches[0]) return matches[0]
  throw new CliError(matches.length === 0 ? `no session "${id}"` : `"${id}" matches several sessions; give more of the id`, 1)
}

export function formatTime(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 19)
}
