import { isRiskyVariable } from './wrappers'
import { isIdentifier, type ShellWord, type WalkContext } from './words'

/**
 * Commands whose effect the analysis cannot see into: they run source it does not
 * have (`source`, `.`, `fc`, `compgen -C`), evaluate arithmetic on text (`let`),
 * load code (`enable -f`) or start a second command stream (`coproc`). Reserved
 * words appear here when the parser reads them as a command name (a misparse).
 */
export const UNSUPPORTED_COMMANDS = new Set([
  'coproc', 'source', '.', 'let', 'enable', 'fc', 'compgen', 'complete', 'bind',
  '{', '}', '[[', ']]', '((', '))', 'then', 'fi', 'do', 'done', 'esac', 'in', 'elif', 'else', 'select', 'function',
])

export interface BuiltinContext extends WalkContext {
  assignedUntracked(): void
}

const DECLARATIONS = new Set(['declare', 'typeset', 'local', 'export', 'readonly'])

/**
 * Builtins that take variable names: bash evaluates an array subscript in such a
 * name (`read 'a[$(cmd)]'`, `printf -v`, `unset`, `[ -v ]`), so every name must be
 * a plain identifier. Values they assign are not followed, so arithmetic on any
 * variable in the same line is refused afterwards.
 */
export function checkBuiltin(words: readonly ShellWord[], ctx: BuiltinContext): void {
  const name = words[0]?.value ?? ''
  const args = words.slice(1)
  const requireName = (word: ShellWord | undefined, what = name): void => {
    if (!word || word.value === null || !isIdentifier(word.value)) ctx.unsupported(`${what} with the variable name "${word?.raw ?? ''}"`)
  }
  switch (name) {
    case 'read':
      ctx.assignedUntracked()
      return checkNamed(args, new Set(['a', 'd', 'i', 'n', 'N', 'p', 't', 'u']), new Set(['a']), requireName)
    case 'mapfile':
    case 'readarray':
      ctx.assignedUntracked()
      if (args.some((w) => w.value === null || /^-[A-Za-z]*C/.test(w.value))) ctx.unsupported(`${name} with a callback`)
      return checkNamed(args, new Set(['c', 'C', 'd', 'n', 'O', 's', 'u']), new Set(), requireName)
    case 'printf':
    case 'wait': {
      const flag = name === 'printf' ? '-v' : '-p'
      const at = args.findIndex((w) => w.value === flag)
      if (at >= 0) {
        ctx.assignedUntracked()
        requireName(args[at + 1], `${name} ${flag}`)
      }
      return
    }
    case 'getopts':
      ctx.assignedUntracked()
      return requireName(args[1])
    case 'test':
    case '[':
      args.forEach((w, i) => {
        if (w.value === '-v' || w.value === '-R') requireName(args[i + 1], `${name} ${w.value}`)
      })
      return
    case 'hash':
      if (args.some((w) => w.value === null || /^-[A-Za-z]*p/.test(w.value))) ctx.unsupported('hash -p')
      return
    case 'unset':
      for (const word of args) if (!/^-[fvn]+$/.test(word.value ?? '')) requireName(word)
      return
    default:
      if (DECLARATIONS.has(name)) checkDeclaration(name, args, ctx)
  }
}

/** Options that take a value (`valued`), those whose value is a variable name (`naming`), then name operands. */
function checkNamed(
  args: readonly ShellWord[],
  valued: ReadonlySet<string>,
  naming: ReadonlySet<string>,
  requireName: (word: ShellWord | undefined) => void,
): void {
  for (let i = 0; i < args.length; i++) {
    const value = args[i]?.value
    if (value === null || value === undefined) return requireName(args[i])
    if (value === '--') {
      args.slice(i + 1).forEach((w) => requireName(w))
      return
    }
    if (!value.startsWith('-') || value === '-') {
      requireName(args[i])
      continue
    }
    const letters = value.slice(1)
    const at = [...letters].findIndex((l) => valued.has(l))
    if (at < 0) continue
    const letter = letters[at] as string
    // `-p prompt` or `-pprompt`: the value is the rest of the word or the next word.
    if (at === letters.length - 1) {
      if (naming.has(letter)) requireName(args[i + 1])
      i++
    } else if (naming.has(letter)) {
      requireName({ raw: letters.slice(at + 1), value: letters.slice(at + 1), expands: false, chars: null })
    }
  }
}

function checkDeclaration(name: string, args: readonly ShellWord[], ctx: BuiltinContext): void {
  for (const word of args) {
    const value = word.value
    if (value === null) {
      ctx.unsupported(`${name} with a computed argument "${word.raw}"`)
      continue
    }
    if (/^[-+]/.test(value)) {
      // -i makes later assignments arithmetic; -n makes a name reference.
      if (name !== 'export' && name !== 'readonly' && /[in]/.test(value)) ctx.unsupported(`${name} ${value}`)
      continue
    }
    const eq = value.indexOf('=')
    const variable = (eq < 0 ? value : value.slice(0, eq)).replace(/\+$/, '')
    if (!isIdentifier(variable)) ctx.unsupported(`${name} with the variable name "${word.raw}"`)
    else if (isRiskyVariable(variable)) ctx.unsupported(`setting ${variable}`)
  }
}
