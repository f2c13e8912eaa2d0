import { WorktreeName } from '@shared/schema/worktree-name'
import { CliError } from './errors'

/** Words of `args` that are not options or option values (`valued`: the options that take a value). */
function countPositionals(args: readonly string[], valued: ReadonlySet<string>): number {
  let count = 0
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string
    if (arg === '--') return count + args.length - i - 1
    if (valued.has(arg)) i++
    else if (!arg.startsWith('-')) count++
  }
  return count
}

/**
 * Takes `--worktree [NAME]` / `-w [NAME]` / `--worktree=NAME` out of `run`'s arguments (util.parseArgs
 * has no optional values). The word right after the flag is the name when it is a valid worktree
 * name and another word is left for the message; otherwise a name is generated (`true`).
 * `valued`: the other options that take a value (`--dir`…), so their values are not taken for words.
 */
export function takeWorktreeFlag(argv: readonly string[], valued: ReadonlySet<string>): { argv: string[]; worktree: string | true | undefined } {
  const rest: string[] = []
  let worktree: string | true | undefined
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    if (arg === '--') {
      rest.push(...argv.slice(i))
      break
    }
    if (valued.has(arg)) {
      rest.push(arg, ...argv.slice(i + 1, i + 2))
      i++
      continue
    }
    if (arg.startsWith('--worktree=')) {
      worktree = parseName(arg.slice('--worktree='.length))
      continue
    }
    if (arg !== '--worktree' && arg !== '-w') {
      rest.push(arg)
      continue
    }
    const next = argv[i + 1]
    const messageLeft = countPositionals(rest, valued) + countPositionals(argv.slice(i + 2), valued) > 0
    if (next !== undefined && !next.startsWith('-') && WorktreeName.safeParse(next).success && messageLeft) {
      worktree = next
      i++
    } else {
      worktree = true
    }
  }
  return { argv: rest, worktree }
}

function parseName(value: string): string {
  const parsed = WorktreeName.safeParse(value)
  if (!parsed.success) throw new CliError(`--worktree: invalid name "${value}": ${parsed.error.issues[0]?.message ?? 'not a name'}`)
  return parsed.data
}
