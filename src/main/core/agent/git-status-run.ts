import { runFile } from '../process/spawn'

/**
 * Running the `git status` the system prompt summarizes, and starting it early. Kept apart from the
 * prompt code (and free of imports beyond `node:` and the process starter) so a command can start it before the core's
 * modules load: in a large repository `git status` takes longer than the whole start-up, and run
 * side by side with it, it no longer holds up the first model request.
 */

/**
 * One git process for branch and changes together: each one costs a fork of this large process.
 * Without optional locks: a plain `git status` rewrites the index when it refreshed stat data (under
 * `.git/index.lock`, where a `git commit` the user runs meanwhile fails), and skipping that write is
 * cheaper too (72–83 ms against 80–88 ms on a 40k-file repository). Without counting how far the
 * branch is ahead of or behind its upstream (nothing shows the counts): a branch 50k commits behind
 * took 139 ms instead of 3.
 */
export const GIT_STATUS_ARGS = ['--no-optional-locks', 'status', '--porcelain=v1', '-z', '-b', '--no-ahead-behind']

export interface GitStatusRun {
  /** The raw porcelain output; rejects when git fails or the run is aborted. */
  output: Promise<string>
  abort(): void
}

export function runGitStatus(root: string): GitStatusRun {
  const controller = new AbortController()
  const output = runFile('git', GIT_STATUS_ARGS, { cwd: root, signal: controller.signal, maxBuffer: 64 * 1024 * 1024 }).then(({ stdout, error }) => {
    if (error) throw error
    return stdout
  })
  return { output, abort: () => controller.abort() }
}

/** A started run nobody took within this long is ended (its result would be stale by then). */
const PREFETCH_TTL_MS = 10_000

const prefetched = new Map<string, GitStatusRun>()

/**
 * Starts `git status` in `root` (a canonical folder path, as projects hold it) for the next turn
 * there to use. The turn takes it once; later turns run their own.
 */
export function prefetchGitStatus(root: string): void {
  if (prefetched.has(root)) return
  const run = runGitStatus(root)
  // Failures are the taker's to report (as "not a git repository"); an untaken run ends quietly.
  run.output.catch(() => undefined)
  prefetched.set(root, run)
  setTimeout(() => {
    if (prefetched.get(root) !== run) return
    prefetched.delete(root)
    run.abort()
  }, PREFETCH_TTL_MS).unref()
}

/** The run started for `root` by `prefetchGitStatus`, once; else a new one. */
export function takeGitStatus(root: string): GitStatusRun {
  const run = prefetched.get(root)
  if (!run) return runGitStatus(root)
  prefetched.delete(root)
  return run
}
