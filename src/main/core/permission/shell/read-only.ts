import { analyzeShell, type ShellAnalysis } from './analyze'

/** Where output may go without changing the project. */
const HARMLESS_TARGETS = /^\/dev\/(null|stdout|stderr|tty|fd\/[12])$/

/**
 * True when a command line provably changes no file: every command is read-only by
 * the table of read-only commands (`validators.ts`, the same one the `@read-only`
 * permission rule uses), and every redirect goes to a terminal device or /dev/null.
 * A line the analysis does not fully understand is not read-only. Used to skip the
 * checkpoint work after such a bash call (with no change feed, that is a walk of the
 * whole tree).
 */
export async function isReadOnlyCommand(command: string, cwd: string): Promise<boolean> {
  return changesNoFiles(await analyzeShell(command, cwd))
}

/** `isReadOnlyCommand` from an analysis of the line already made. */
export function changesNoFiles(analysis: ShellAnalysis): boolean {
  if (!analysis.ok) return false
  if (!analysis.commands.every((command) => command.readOnly)) return false
  return analysis.paths.every((path) => path.access !== 'write' || (path.path !== null && HARMLESS_TARGETS.test(path.path)))
}
