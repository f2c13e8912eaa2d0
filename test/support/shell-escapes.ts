import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Shell lines that try to get past the permission checks. Run in a project `P`
 * with a sibling `P-outside` (holding `secret.txt`), a symlink `P/link` to it and
 * a `P/.env`. `@M` stands for a marker file of the entry, created beforehand: an
 * escape that runs deletes it. Writes land in the outside folder, reads print a
 * secret; none of it may happen.
 */
export interface ShellEscape {
  command: string
  /** What it tries: remove the marker, write outside, read a secret. */
  kind: 'run' | 'write-outside' | 'read-secret'
}

const run = (command: string): ShellEscape => ({ command, kind: 'run' })
const write = (command: string): ShellEscape => ({ command, kind: 'write-outside' })
const read = (command: string): ShellEscape => ({ command, kind: 'read-secret' })

export const SHELL_ESCAPES: ShellEscape[] = [
  // Arithmetic evaluates array subscripts, and a subscript may hold a command substitution.
  run("x='a[$(rm -f @M)]'; [[ $x -eq 0 ]]"),
  run("x='a[$(rm -f @M)]'; ((x))"),
  run("x='a[$(rm -f @M)]'; case $((x)) in *) ;; esac"),
  run("x='a[$(rm -f @M)]'; echo $((x))"),
  run("x='a[$(rm -f @M)]'; echo ${y[x]}"),
  run("x='a[$(rm -f @M)]'; echo ${z:x}"),
  run('echo $(( a[$(rm -f @M)] ))'),
  run("for x in 'a[$(rm -f @M)]'; do echo $((x)); done"),
  run("read x <<< 'a[$(rm -f @M)]'; echo $((x))"),
  run("let 'x=a[$(rm -f @M)]'"),
  run("x='a[$(rm -f @M)]'; declare -i y; y=x"),
  // Expansions that evaluate their value.
  run("x='$(rm -f @M)'; echo ${x@P}"),
  run("x='a[$(rm -f @M)]'; echo ${!x}"),
  run("declare -n r='a[$(rm -f @M)]'; echo $r"),
  // Builtins that take variable names evaluate subscripts in them.
  run("printf -v 'a[$(rm -f @M)]' x"),
  run("read 'a[$(rm -f @M)]' <<< x"),
  run("read -a 'b[$(rm -f @M)]' <<< x"),
  run("mapfile -C 'rm -f @M #' -c 1 a <<< x"),
  run("unset 'a[$(rm -f @M)]'"),
  run("[ -v 'a[$(rm -f @M)]' ]"),
  run('[[ -v a[$(rm -f @M)] ]]'),
  // Process substitution, coproc, descriptor variables.
  run('echo hi > >(rm -f @M)'),
  run('cat < <(rm -f @M)'),
  run('touch a; coproc rm -f @M'),
  run('echo {fd}>/dev/null; rm -f @M'),
  run('source <(echo rm -f @M)'),
  // Here-documents (tree-sitter-bash misses some substitutions in them).
  run('cat <<EOF\n$(rm -f @M)\nEOF'),
  run('cat <<-EOF\n\t`rm -f @M`\n\tEOF'),
  run('cat <<-EOF\n\t$(rm -f @M)\n\tEOF'),
  run('cat <<EOF | sh\nrm -f @M\nEOF'),
  run('bash <<EOF\nrm -f @M\nEOF'),
  run('cat <<< "$(rm -f @M)"'),
  // exec, trap, source, functions and aliases defined inline.
  run('exec rm -f @M'),
  run("trap 'rm -f @M' EXIT; true"),
  run('trap "rm -f @M" EXIT'),
  run("echo 'rm -f @M' > s1.sh; . ./s1.sh"),
  run('f() { rm -f @M; }; f'),
  run('function g { rm -f @M; }; g'),
  run('ls() { rm -f @M; }; ls'),
  run("shopt -s expand_aliases; alias ls='rm -f @M'\nls"),
  // Variables that make other programs run code.
  run("PROMPT_COMMAND='rm -f @M' bash -i -c true"),
  run("echo 'rm -f @M' > e1.sh; BASH_ENV=./e1.sh bash -c true"),
  run("echo 'rm -f @M' > e2.sh; export BASH_ENV=./e2.sh; bash -c true"),
  run('BASH_ENV=<(echo rm -f @M) bash -c true'),
  run('IFS=,; c=rm,-f,@M; $c'),
  run('IFS=/ read -r a b <<< "rm/-f"; $a $b @M'),
  // Hidden or spelled command names.
  run('$(echo rm) -f @M'),
  run('`echo rm` -f @M'),
  run('"r"m -f @M'),
  run('\\rm -f @M'),
  run("$'\\x72m' -f @M"),
  run('{rm,-f,@M}'),
  run('r? -f @M'),
  // Wrappers and nesting.
  run("eval 'rm -f @M'"),
  run('eval "$(echo rm -f @M)"'),
  run("builtin eval 'rm -f @M'"),
  run("bash -c 'rm -f @M'"),
  run("env -S 'rm -f @M'"),
  run('env rm -f @M'),
  run('timeout 5 rm -f @M'),
  run('nice -n 5 command rm -f @M'),
  run('echo @M | xargs rm -f'),
  run('find . -name @M -exec rm -f {} \\;'),
  run('find . -name @M -delete'),
  // Lists, groups and substitutions.
  run('echo x; rm -f @M # trailing comment'),
  run('echo $(rm -f @M)'),
  run('echo "${x:-$(rm -f @M)}"'),
  run('x=$(rm -f @M)'),
  run('a=(x $(rm -f @M))'),
  run('true && (rm -f @M)'),
  run('echo ok | { rm -f @M; }'),
  run('for i in 1; do rm -f @M; done'),
  run('if true; then rm -f @M; fi'),
  // Writes outside the project.
  write('touch "$PWD-outside/w1"'),
  write('echo x > "$PWD-outside/w2"'),
  write('touch ~+/link/w3'),
  write('touch {link/w4,w4b}'),
  write("echo x > ~+/$'\\x6c'ink/w5"),
  write('exec 3>"$PWD-outside/w6"'),
  write('cd "$PWD-outside" && touch w7'),
  write('cd link && touch w8'),
  write('touch l?nk/w9'),
  write('echo x >> link/w10'),
  write('touch "$(pwd)-outside/w11"'),
  write('touch ../$(basename "$PWD")-outside/w12'),
  // Reads of the outside secret and of .env.
  read('cat li*/secret.txt'),
  read('cat ~+/link/secret.txt'),
  read('cat link/secret.txt'),
  read('cat "$PWD-outside/secret.txt"'),
  read('cat < link/secret.txt'),
  read('cat .env'),
  read('head -c 100 .env'),
  read('grep -r SECRET .env'),
  read('cat ./.e*'),
  read('cat < .env'),
  read("cat $'.\\x65nv'"),
  read('echo .env | xargs cat'),
  read('echo link/secret.txt | xargs cat'),
  read('find . -name .env -exec cat {} \\;'),
  read('echo "$(<.env)"'),
]

/** What an allowed command writes, to prove the same run does execute what it may. */
export const ALLOWED_SAMPLES = ['touch allowed-1.txt', 'cd src && touch allowed-2.txt', 'echo hi > /dev/null && ls']

export const ENV_SECRET = 'ENV-SECRET-7731'
export const OUTSIDE_SECRET = 'OUTSIDE-SECRET-4410'

/** The marker file of entry `index`. */
export function markerOf(index: number): string {
  return `marker-${index}`
}

export function commandOf(index: number): string {
  return (SHELL_ESCAPES[index] as ShellEscape).command.replaceAll('@M', markerOf(index))
}

/** Creates the project and its outside sibling; returns both paths. */
export function escapeProject(base: string): { project: string; outside: string } {
  const project = join(base, 'proj')
  const outside = `${project}-outside`
  mkdirSync(join(project, 'src'), { recursive: true })
  mkdirSync(outside, { recursive: true })
  writeFileSync(join(outside, 'secret.txt'), `${OUTSIDE_SECRET}\n`)
  writeFileSync(join(project, '.env'), `KEY=${ENV_SECRET}\n`)
  writeFileSync(join(project, 'notes.txt'), 'notes\n')
  symlinkSync(outside, join(project, 'link'))
  SHELL_ESCAPES.forEach((_, i) => writeFileSync(join(project, markerOf(i)), 'marker\n'))
  return { project, outside }
}

export function listing(dir: string): string[] {
  return readdirSync(dir).sort()
}

/** Deny by default: only these commands may run, outside access is denied, `.env` reads are denied. */
export const DENY_BY_DEFAULT = {
  bash: { '*': 'deny', 'touch *': 'allow', 'echo *': 'allow', 'ls *': 'allow', 'cat *': 'allow', true: 'allow' },
  external_directory: 'deny',
  read: { '*.env': 'deny' },
} as const
