import type { ShellWord } from './words'

/**
 * Commands that read the files named in their operands, so that those operands are
 * checked against `read` rules as well (a `read` deny for `*.env` holds through
 * `cat .env`). `pattern` is the number of leading operands that are not files (the
 * pattern of grep, the program of awk), unless one of `patternOptions` supplies it.
 * `lastIsTarget`: the last operand is written, not read (cp).
 */
interface ReaderSpec {
  pattern?: number
  patternOptions?: readonly string[]
  lastIsTarget?: boolean
}

const FILE_OPTIONS = new Set(['-f', '--file', '--from-file'])
const GREP: ReaderSpec = { pattern: 1, patternOptions: ['-e', '--regexp', '-f', '--file'] }
const SCRIPTED: ReaderSpec = { pattern: 1, patternOptions: ['-e', '--expression', '-f', '--file'] }

const READERS = new Map<string, ReaderSpec>([
  ...['cat', 'tac', 'head', 'tail', 'less', 'more', 'most', 'bat', 'batcat', 'nl', 'wc', 'sort', 'uniq', 'cut',
    'paste', 'join', 'comm', 'diff', 'cmp', 'od', 'xxd', 'hexdump', 'strings', 'base64', 'base32', 'md5sum',
    'sha1sum', 'sha224sum', 'sha256sum', 'sha384sum', 'sha512sum', 'b2sum', 'cksum', 'sum', 'file', 'rev', 'fold',
    'fmt', 'pr', 'expand', 'unexpand', 'column', 'iconv', 'zcat', 'zless', 'bzcat', 'xzcat', 'zstdcat', 'lzcat',
    'gunzip', 'view', 'source', '.', 'shasum', 'dos2unix', 'unix2dos', 'split', 'csplit', 'yq', 'tsort', 'look',
    'ptx', 'numfmt',
  ].map((name): [string, ReaderSpec] => [name, {}]),
  ['grep', GREP], ['egrep', GREP], ['fgrep', GREP], ['zgrep', GREP], ['rg', GREP], ['ag', GREP], ['ack', GREP],
  ['awk', SCRIPTED], ['gawk', SCRIPTED], ['mawk', SCRIPTED], ['nawk', SCRIPTED], ['sed', SCRIPTED],
  ['jq', { pattern: 1, patternOptions: ['-f', '--from-file'] }],
  ...['cp', 'mv', 'scp', 'rsync', 'install'].map((name): [string, ReaderSpec] => [name, { lastIsTarget: true }]),
])

/** Commands whose arguments are never file names: a computed argument of theirs names no file. */
export const NO_FILE_ARGUMENTS = new Set([
  'echo', 'printf', 'true', 'false', ':', 'test', '[', 'sleep', 'exit', 'return', 'shift', 'set', 'kill', 'wait',
  'seq', 'expr', 'basename', 'dirname', 'which', 'type', 'pwd', 'jobs', 'read', 'export', 'local', 'declare',
  'typeset', 'readonly', 'unset', 'shopt', 'break', 'continue', 'let', 'getopts', 'hash', 'umask', 'times', 'yes',
])

/** Indexes (into `words`, 0 being the command) of the operands a known reader reads; empty for other commands. */
export function readOperands(words: readonly ShellWord[]): number[] {
  const name = words[0]?.value
  if (name === null || name === undefined) return []
  const spec = READERS.get(name.slice(name.lastIndexOf('/') + 1))
  if (!spec) return []
  const operands: number[] = []
  let optionsDone = false
  let patternGiven = false
  for (let i = 1; i < words.length; i++) {
    const value = words[i]?.value
    if (!optionsDone && value === '--') {
      optionsDone = true
      continue
    }
    if (!optionsDone && value !== null && value !== undefined && value.startsWith('-') && value !== '-') {
      const flag = value.split('=', 1)[0] as string
      if (spec.patternOptions?.includes(flag)) {
        patternGiven = true
        // `-e PATTERN`: the next word is the pattern, not an operand; `-f FILE` reads that file.
        if (!value.includes('=')) {
          i++
          if (FILE_OPTIONS.has(flag)) operands.unshift(i)
        }
      }
      continue
    }
    if (value === '-') continue
    operands.push(i)
  }
  const files = patternGiven ? operands : operands.slice(spec.pattern ?? 0)
  return spec.lastIsTarget && files.length > 1 ? files.slice(0, -1) : files
}
