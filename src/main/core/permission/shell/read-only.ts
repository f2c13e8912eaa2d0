import { analyzeShell, type AnalyzedCommand, type ShellAnalysis } from './analyze'

/** Where output may go without changing the project. */
const HARMLESS_TARGETS = /^\/dev\/(null|stdout|stderr|tty|fd\/[12])$/

/**
 * Programs that only read files and print to stdout, whatever their arguments, except for the
 * options listed with them (which write files or run other programs). Anything else (`git`,
 * `npm`, `sed`, `uniq in out`, `tree -o`, `xxd in out`…) counts as a possible writer.
 */
const READERS: ReadonlyMap<string, RegExp | null> = new Map([
  ...['ls', 'cat', 'head', 'tail', 'wc', 'grep', 'egrep', 'fgrep', 'echo', 'printf', 'pwd', 'stat', 'du', 'df'].map(
    (name): [string, null] => [name, null],
  ),
  ...['which', 'basename', 'dirname', 'realpath', 'readlink', 'cut', 'tr', 'nl', 'diff', 'cmp', 'true', 'false'].map(
    (name): [string, null] => [name, null],
  ),
  ...['sha256sum', 'sha1sum', 'md5sum', 'test', '[', 'cd', 'pushd', 'popd'].map((name): [string, null] => [name, null]),
  ['rg', /^--pre(=|$)/],
  ['sort', /^(-o|--output)(=|$)|^-[a-zA-Z]*o/],
  ['file', /^-[a-zA-Z]*C|^--compile$/],
  ['date', /^-[a-zA-Z]*s|^--set(=|$)/],
  ['find', /^-(delete|exec|execdir|ok|okdir|fprint|fprint0|fprintf|fls)$/],
])

function readsOnly(command: AnalyzedCommand): boolean {
  if (command.computed) return false
  const [program, ...args] = command.argv
  if (program === undefined) return true
  const name = program.slice(program.lastIndexOf('/') + 1)
  if (!READERS.has(name)) return false
  const writes = READERS.get(name)
  return !writes || !args.some((arg) => writes.test(arg))
}

/**
 * True when a command line provably changes no file: every command is a known reader used
 * without its writing options, and every redirect goes to a terminal device or /dev/null. A
 * line the analysis does not fully understand is not read-only. Used to skip the checkpoint
 * work after such a bash call (with no change feed, that is a walk of the whole tree).
 */
export async function isReadOnlyCommand(command: string, cwd: string): Promise<boolean> {
  return changesNoFiles(await analyzeShell(command, cwd))
}

/** `isReadOnlyCommand` from an analysis of the line already made. */
export function changesNoFiles(analysis: ShellAnalysis): boolean {
  if (!analysis.ok) return false
  if (!analysis.commands.every(readsOnly)) return false
  return analysis.paths.every((path) => path.access !== 'write' || (path.path !== null && HARMLESS_TARGETS.test(path.path)))
}
