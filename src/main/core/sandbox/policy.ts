import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import type { SandboxConfig } from '../config/schema'

export type SandboxNetwork = { mode: 'none' } | { mode: 'proxy'; allowedDomains: string[] }

/** What a sandboxed process may do, with every path absolute and symlink-resolved. */
export interface SandboxPolicy {
  enabled: boolean
  autoAllow: boolean
  allowUnsandboxedRetry: boolean
  /** `sandbox.allowUnixSockets` as configured: undefined means refused where the filter can be built. */
  allowUnixSockets?: boolean
  /** Writable roots: the project (and its git worktree data), a private temp dir, `allowWrite`. */
  writable: string[]
  /** Inside writable roots but read-only: files that would let a command run code outside the sandbox later. */
  protectedWrites: string[]
  /** Hidden from reads (and writes). */
  denyRead: string[]
  network: SandboxNetwork
  /** The private temp dir (TMPDIR inside). */
  tempDir: string
  projectRoot: string
}

export interface PolicyContext {
  projectRoot: string
  homeDir: string
  /** The app's data dir: the database (every session), the secret store, tool output. */
  dataDir: string
  /** The user's config folder (may hold provider keys). */
  configDir?: string
  platform?: NodeJS.Platform
  env?: Readonly<Record<string, string | undefined>>
}

/** Credentials and other secrets every sandboxed command is kept from reading, relative to the home folder. */
const HOME_SECRETS = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.config/gcloud',
  '.kube',
  '.docker/config.json',
  '.netrc',
  '.npmrc',
  '.git-credentials',
  '.config/gh',
  '.pypirc',
  '.cargo/credentials.toml',
]

const BROWSER_PROFILES: Record<string, string[]> = {
  linux: ['.mozilla', '.config/google-chrome', '.config/chromium', '.config/BraveSoftware', '.config/microsoft-edge', 'snap/firefox'],
  darwin: [
    'Library/Application Support/Google/Chrome',
    'Library/Application Support/Firefox',
    'Library/Application Support/BraveSoftware',
    'Library/Application Support/Microsoft Edge',
    'Library/Safari',
    'Library/Cookies',
    'Library/Keychains',
  ],
}

/** Files inside the project that other parts of the app run or obey unsandboxed later. */
const PROTECTED_IN_PROJECT = ['.git/hooks', '.git/config', '.hotaru', '.mcp.json', 'hotaru.json', 'hotaru.jsonc', '.vscode', '.idea']

/** The default `denyRead` list for a home folder and platform (shown in settings). */
export function defaultDenyRead(ctx: PolicyContext): string[] {
  const platform = ctx.platform ?? process.platform
  const home = ctx.homeDir
  const list = [...HOME_SECRETS, ...(BROWSER_PROFILES[platform] ?? [])].map((p) => join(home, p))
  list.push(ctx.dataDir)
  if (ctx.configDir) list.push(ctx.configDir)
  // Local daemons' sockets (docker, agents) would let a command act outside the sandbox.
  if (platform === 'linux') {
    list.push('/var/run/docker.sock', '/run/docker.sock')
    const uid = process.getuid?.()
    if (uid !== undefined) list.push(`/run/user/${uid}`)
  }
  const agent = ctx.env?.SSH_AUTH_SOCK
  if (agent && isAbsolute(agent)) list.push(dirname(agent))
  return list
}

/** `~`, `~/x` and relative (to the project) paths to absolute ones. */
export function expandPath(path: string, ctx: { homeDir: string; projectRoot: string }): string {
  if (path === '~') return ctx.homeDir
  if (path.startsWith('~/')) return join(ctx.homeDir, path.slice(2))
  return resolve(ctx.projectRoot, path)
}

/** The path with symlinks resolved as far as it exists (a missing tail is kept as written). */
export function realish(path: string): string {
  let head = path
  const tail: string[] = []
  for (;;) {
    try {
      return join(realpathSync(head), ...[...tail].reverse())
    } catch (error) {
      // Not there (yet): resolve the parent and keep this part as written.
      if (!isMissing(error)) return path
      const parent = dirname(head)
      if (parent === head) return path
      tail.push(head.slice(parent.length + (parent.endsWith('/') ? 0 : 1)))
      head = parent
    }
  }
}

/** A per-user, per-project temp dir, private (0700) and stable across commands. */
export function privateTempDir(projectRoot: string): string {
  const uid = process.getuid?.() ?? 'user'
  const id = createHash('sha256').update(projectRoot).digest('hex').slice(0, 16)
  const dir = join(realish(tmpdir()), `hotaru-sandbox-${uid}`, id)
  mkdirSync(join(dir, 'tmp'), { recursive: true, mode: 0o700 })
  return dir
}

/**
 * A git worktree keeps its index and HEAD in the main repository
 * (`.git` is a file: `gitdir: …/.git/worktrees/name`); git there must write them.
 */
function gitWorktreeDirs(root: string): { writable: string[]; protectedWrites: string[] } {
  const dotGit = join(root, '.git')
  try {
    if (!statSync(dotGit).isFile()) return { writable: [], protectedWrites: [] }
  } catch (error) {
    if (isMissing(error)) return { writable: [], protectedWrites: [] }
    throw error
  }
  const match = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))
  if (!match?.[1]) return { writable: [], protectedWrites: [] }
  const gitDir = realish(resolve(root, match[1].trim()))
  let common = gitDir
  const commonFile = join(gitDir, 'commondir')
  if (existsSync(commonFile)) common = realish(resolve(gitDir, readFileSync(commonFile, 'utf8').trim()))
  return { writable: [gitDir, common], protectedWrites: [join(common, 'hooks'), join(common, 'config')] }
}

/** The effective policy of a project from its `sandbox` config. */
export function sandboxPolicy(config: SandboxConfig | undefined, ctx: PolicyContext): SandboxPolicy {
  const root = realish(ctx.projectRoot)
  const paths = { homeDir: ctx.homeDir, projectRoot: root }
  const worktree = gitWorktreeDirs(root)
  const tempDir = config?.enabled ? privateTempDir(root) : join(realish(tmpdir()), 'hotaru-sandbox-off')
  const writable = unique([root, ...worktree.writable, join(tempDir, 'tmp'), ...(config?.allowWrite ?? []).map((p) => realish(expandPath(p, paths)))])
  const denyRead = unique([...defaultDenyRead(ctx), ...(config?.denyRead ?? []).map((p) => expandPath(p, paths))].map(realish))
  const network: SandboxNetwork =
    config?.network && config.network !== 'none' ? { mode: 'proxy', allowedDomains: config.network.allowedDomains.map((d) => d.toLowerCase()) } : { mode: 'none' }
  return {
    enabled: config?.enabled ?? false,
    autoAllow: config?.autoAllow ?? false,
    allowUnsandboxedRetry: config?.allowUnsandboxedRetry ?? false,
    ...(config?.allowUnixSockets !== undefined ? { allowUnixSockets: config.allowUnixSockets } : {}),
    writable,
    protectedWrites: unique([...PROTECTED_IN_PROJECT.map((p) => join(root, p)), ...worktree.protectedWrites]),
    denyRead,
    network,
    tempDir,
    projectRoot: root,
  }
}

function unique(list: string[]): string[] {
  return [...new Set(list)]
}

/** True when `path` is `root` or inside it. */
export function isWithin(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith('/') ? root : `${root}/`)
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code
  return code === 'ENOENT' || code === 'ENOTDIR'
}
