import { watch, type FSWatcher } from 'chokidar'
import { basename } from 'node:path'
import type { GitFileStatus, GitStatus } from '@shared/schema/fs-events'
import { RestrictedGitUnknown, restrictedGit } from './restricted-git'
import { runFile } from '../process/spawn'
import { detached } from '../util/detached'

const GIT_TIMEOUT_MS = 30_000
/** Status of a huge work tree can be large; beyond this it is reported as an error, not cut short. */
const GIT_MAX_BUFFER = 64 * 1024 * 1024
const CONFLICTS = new Set(['DD', 'AU', 'UD', 'UA', 'DU', 'AA', 'UU'])

interface GitRun {
  stdout: string
  /** The error when git could not run or exited non-zero. */
  error: (Error & { code?: unknown }) | null
  stderr: string
}

function git(cwd: string, args: string[]): Promise<GitRun> {
  return runFile('git', args, { cwd, timeout: GIT_TIMEOUT_MS, maxBuffer: GIT_MAX_BUFFER, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' } })
}

function classify(xy: string): GitFileStatus {
  if (xy === '??') return 'untracked'
  if (CONFLICTS.has(xy)) return 'conflicted'
  if (xy.includes('R') || xy.includes('C')) return 'renamed'
  if (xy[0] === 'A') return 'added'
  if (xy.includes('D')) return 'deleted'
  return 'modified'
}

/**
 * The tree's status: the branch (its distance from the upstream is not counted: nothing shows it) and
 * every change; in a restricted folder not inside submodules, whose configs are theirs.
 */
function statusArgs(restricted: boolean): string[] {
  const submodules = restricted ? ['--ignore-submodules=all'] : []
  return ['status', '--porcelain=v1', '-z', '-b', '--no-ahead-behind', '--untracked-files=normal', ...submodules, '--', '.']
}

function branchOf(header: string): string | null {
  // "## main...origin/main [different]", "## No commits yet on main", "## HEAD (no branch)"
  const text = header.slice(3)
  if (text.startsWith('No commits yet on ')) return text.slice('No commits yet on '.length)
  if (text.startsWith('HEAD (no branch)')) return null
  return text.split('...')[0]?.split(' ')[0] ?? null
}

/**
 * Parses `git status --porcelain=v1 -z -b`. Paths are relative to the repository
 * root; `prefix` (the project's place inside the repository, from
 * `rev-parse --show-prefix`) is stripped so keys are project-relative.
 */
export function parsePorcelain(output: string, prefix: string): Pick<GitStatus, 'branch' | 'files'> {
  const files: Record<string, GitFileStatus> = {}
  let branch: string | null = null
  const records = output.split('\0')
  for (let i = 0; i < records.length; i++) {
    const record = records[i] as string
    if (record === '') continue
    if (record.startsWith('## ')) {
      branch = branchOf(record)
      continue
    }
    const xy = record.slice(0, 2)
    const path = record.slice(3)
    // A rename or copy is followed by a record holding the old path.
    if (xy.includes('R') || xy.includes('C')) i++
    if (!path.startsWith(prefix)) continue
    const rel = path.slice(prefix.length)
    if (rel !== '') files[rel] = classify(xy)
  }
  return { branch, files }
}

/** Where the project sits in its repository: fixed for a project, so asked once. */
export interface GitLocation {
  /** The project's path inside the repository (`rev-parse --show-prefix`), `''` at its root. */
  prefix: string
  gitDir: string
}

/**
 * One snapshot of the project's git status; never throws (failures are reported in `error`).
 * With a `known` location it runs `git status` alone: each git process costs a fork of this
 * (large) process, which holds its event loop for as long as that takes.
 */
export async function readGitStatus(root: string, known?: GitLocation, restricted = false): Promise<GitStatus & { location?: GitLocation }> {
  if (known) {
    const status = await statusOf(root, restricted)
    // A repository removed or re-created under the project: ask where the project is again.
    if (!status.error) return { repo: true, ...parsePorcelain(status.stdout, known.prefix), location: known }
  }
  const where = await git(root, ['rev-parse', '--show-prefix', '--absolute-git-dir'])
  if (where.error) {
    if (where.error.code === 'ENOENT') return { repo: false, branch: null, files: {}, error: 'git is not installed' }
    // Not a repository is the ordinary case for a plain folder: no error to show.
    if (/not a git repository/i.test(where.stderr)) return { repo: false, branch: null, files: {} }
    return { repo: false, branch: null, files: {}, error: where.stderr.trim() || where.error.message }
  }
  const [prefix = '', gitDir = ''] = where.stdout.split('\n')
  const location = { prefix, gitDir }
  const status = await statusOf(root, restricted)
  if (status.error) return { repo: true, branch: null, files: {}, error: status.stderr.trim() || status.error.message, location }
  return { repo: true, ...parsePorcelain(status.stdout, prefix), location }
}

/** `git status` of the tree; in a `restricted` folder nothing of the repository's config runs (`restrictedGit`). */
async function statusOf(root: string, restricted: boolean): Promise<GitRun> {
  if (!restricted) return git(root, statusArgs(false))
  const safe = await restrictedGit(root)
  if (!safe) return { stdout: '', stderr: '', error: new RestrictedGitUnknown() }
  return git(root, [...safe.options, ...statusArgs(true)])
}

/**
 * Keeps a project's git status current: recomputed (debounced, never two runs at
 * once) when the work tree changes or git's own index/HEAD move, and reported
 * only when it differs from the last report.
 */
export class GitStatusTracker {
  private last: GitStatus | null = null
  private lastKey = ''
  private running: Promise<GitStatus> | null = null
  private again = false
  private timer: NodeJS.Timeout | null = null
  private gitWatcher: FSWatcher | null = null
  private location: GitLocation | undefined
  private disposed = false

  /**
   * `restricted`: whether the folder is restricted (not trusted) now, asked before every run, so
   * trusting it takes effect with the next status.
   */
  constructor(
    private readonly root: string,
    private readonly onChange: (status: GitStatus) => void,
    private readonly restricted: () => boolean,
    private readonly debounceMs = 300,
  ) {}

  /** The current status (computed on first use). */
  async current(): Promise<GitStatus> {
    if (this.last) return this.last
    return this.run()
  }

  /** Something in the work tree changed: recompute soon. */
  schedule(): void {
    if (this.disposed) return
    if (this.timer) clearTimeout(this.timer)
    this.timer = setTimeout(() => {
      this.timer = null
      // A failed `git status` leaves the last status shown; the next change tries again.
      detached('git status', this.run())
    }, this.debounceMs)
  }

  private run(): Promise<GitStatus> {
    if (this.running) {
      this.again = true
      return this.running
    }
    this.running = (async () => {
      const { location, ...status } = await readGitStatus(this.root, this.location, this.restricted())
      this.location = location
      if (location?.gitDir && !this.gitWatcher && !this.disposed) this.watchGitDir(location.gitDir)
      return status
    })()
    return this.running.then((status) => {
      this.running = null
      const key = JSON.stringify(status)
      if (!this.disposed && key !== this.lastKey) {
        this.lastKey = key
        const first = this.last === null
        this.last = status
        if (!first) this.onChange(status)
      }
      this.last = status
      if (this.again) {
        this.again = false
        this.schedule()
      }
      return status
    }, (error: unknown) => {
      this.running = null
      throw error
    })
  }

  /** Commits, checkouts and `git add` change only .git: watch its index and HEAD. */
  private watchGitDir(gitDir: string): void {
    this.gitWatcher = watch(gitDir, {
      depth: 0,
      ignoreInitial: true,
      ignored: (path) => path !== gitDir && !['index', 'HEAD'].includes(basename(path)),
    })
    this.gitWatcher.on('all', () => this.schedule())
    this.gitWatcher.on('error', (error) => console.warn(`[git] watching ${gitDir} failed:`, error))
  }

  async dispose(): Promise<void> {
    this.disposed = true
    if (this.timer) clearTimeout(this.timer)
    await this.gitWatcher?.close()
  }
}
