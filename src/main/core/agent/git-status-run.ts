import { runFile } from '../process/spawn'
import { RestrictedGitUnknown, restrictedGit } from '../project/restricted-git'

/**
 * Running the `git status` the system prompt summarizes, and starting it early. Kept apart from the
 * prompt code (and free of imports beyond `node:`, the process starter and `restricted-git`) so a command can start
 * it before the core's modules load: in a large repository `git status` takes longer than the whole start-up, and run
 * side by side with it, it no longer holds up the first model request.
 */

/**
 * One git process for branch and changes together: each one costs a fork of this large process.
 * Without optional locks: a plain `git status` rewrites the index when it refreshed stat data (under
 * `.git/index.lock`, where a `git commit` the user runs meanwhile fails), and skipping that write is
 * cheaper too (72–83 ms against 80–88 ms on a 40k-file repository). Without counting how far the
 * branch is ahead of or behind its upstream (nothing shows the counts): a branch 50k commits behind
 * took 139 ms instead of 3. Without looking into submodules: their changes are not counted, and a
 * restricted folder's submodules would run their own configs' programs. A file counts as unchanged while its
 * size and whole-second modification time match the index (`core.checkStat=minimal`, ctime not trusted): in a
 * tree copied with its times kept, restored from a backup or seen through a container's mount, every inode and
 * change time differs from the index's, and git read every file again to compare it (0.93 s against 0.34 s on a
 * copied 38k-file repository), on every turn, since a status without optional locks never writes the index back.
 */
export const GIT_STATUS_ARGS = ['-c', 'core.checkStat=minimal', '-c', 'core.trustCtime=false', '--no-optional-locks', 'status', '--porcelain=v1', '-z', '-b', '--no-ahead-behind', '--ignore-submodules=all']

export interface GitStatusRun {
  /** The raw porcelain output; rejects when git fails or the run is aborted. */
  output: Promise<string>
  /** Once `output` resolved: a restricted run emptied filter drivers of the repository's own config. */
  emptiedLocalFilters(): boolean
  abort(): void
}

/** `git status` in `root`; in a restricted folder with nothing of the repository's config that runs a program. */
export function runGitStatus(root: string, restricted: boolean): GitStatusRun {
  const controller = new AbortController()
  let localFilters = false
  const output = (async () => {
    let options: string[] = []
    if (restricted) {
      const safe = await restrictedGit(root, controller.signal)
      if (!safe) throw new RestrictedGitUnknown()
      options = safe.options
      localFilters = safe.localFilters
    }
    const { stdout, error } = await runFile('git', [...options, ...GIT_STATUS_ARGS], { cwd: root, signal: controller.signal, maxBuffer: 64 * 1024 * 1024 })
    if (error) throw error
    return stdout
  })()
  return { output, emptiedLocalFilters: () => localFilters, abort: () => controller.abort() }
}

/** A started run nobody took within this long is ended (its result would be stale by then). */
const PREFETCH_TTL_MS = 10_000

const prefetched = new Map<string, GitStatusRun>()

/**
 * Starts `git status` in `root` (a canonical folder path, as projects hold it) for the next turn
 * there to use. The turn takes it once; later turns run their own. Whether the folder is trusted is
 * not known yet, so it runs as in a restricted folder.
 */
export function prefetchGitStatus(root: string): void {
  if (prefetched.has(root)) return
  const run = runGitStatus(root, true)
  // Failures are the taker's to report (as "not a git repository"); an untaken run ends quietly.
  run.output.catch(() => undefined)
  prefetched.set(root, run)
  setTimeout(() => {
    if (prefetched.get(root) !== run) return
    prefetched.delete(root)
    run.abort()
  }, PREFETCH_TTL_MS).unref()
}

/**
 * The run started for `root` by `prefetchGitStatus`, once; else a new one. A trusted folder uses the
 * restricted run's answer unless it had to empty the repository's own filter drivers (a file they
 * would have cleaned may then show as changed) or could not run restricted at all: then it asks git
 * again.
 */
export function takeGitStatus(root: string, restricted: boolean): GitStatusRun {
  const run = prefetched.get(root)
  if (!run) return runGitStatus(root, restricted)
  prefetched.delete(root)
  if (restricted) return run
  let again: GitStatusRun | undefined
  const askAgain = (): Promise<string> => {
    again = runGitStatus(root, false)
    return again.output
  }
  const output = run.output.then(
    (stdout) => (run.emptiedLocalFilters() ? askAgain() : stdout),
    (error: unknown) => {
      if (error instanceof RestrictedGitUnknown) return askAgain()
      throw error
    },
  )
  return {
    output,
    emptiedLocalFilters: () => false,
    abort: () => {
      run.abort()
      again?.abort()
    },
  }
}
