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

/** Where a file read through an option's value starts: the word and the offset into its value. */
export interface OptionRead {
  index: number
  offset: number
}

const CURL_DATA = new Set(['-d', '--data', '--data-ascii', '--data-binary', '--data-urlencode', '--json'])
const CURL_FORM = new Set(['-F', '--form'])
const CURL_FILE = new Set(['-T', '--upload-file', '-K', '--config'])
const WGET_FILE = new Set(['--post-file', '--body-file', '-i', '--input-file'])

/**
 * Files that uploaders read through option values: `curl -d @file`, `-F name=@file`,
 * `-T file`, `wget --post-file=file`… (a `read` deny for `*.env` holds there too).
 */
export function optionFileReads(words: readonly ShellWord[]): OptionRead[] {
  const name = words[0]?.value
  const tool = name?.slice(name.lastIndexOf('/') + 1)
  if (tool !== 'curl' && tool !== 'wget') return []
  const reads: OptionRead[] = []
  const add = (option: string, index: number, value: string, base: number): void => {
    if (tool === 'wget') {
      if (WGET_FILE.has(option)) reads.push({ index, offset: base })
      return
    }
    if (CURL_FILE.has(option)) reads.push({ index, offset: base })
    else if (CURL_DATA.has(option)) {
      const at = value.indexOf('@')
      if (at === 0 || (option === '--data-urlencode' && at > 0 && !value.slice(0, at).includes('='))) reads.push({ index, offset: base + at + 1 })
    } else if (CURL_FORM.has(option)) {
      const at = value.search(/=[@<]/)
      if (at >= 0) reads.push({ index, offset: base + at + 2 })
    }
  }
  for (let i = 1; i < words.length; i++) {
    const value = words[i]?.value
    if (value === null || value === undefined || !value.startsWith('-')) continue
    const eq = value.indexOf('=')
    if (value.startsWith('--') && eq > 0) {
      add(value.slice(0, eq), i, value.slice(eq + 1), eq + 1)
      continue
    }
    // `-d@file` or `-d @file`.
    const option = value.startsWith('--') ? value : value.slice(0, 2)
    if (!value.startsWith('--') && value.length > 2) {
      add(option, i, value.slice(2), 2)
      continue
    }
    const next = words[i + 1]?.value
    if (next !== null && next !== undefined) add(option, i + 1, next, 0)
  }
  return reads
}
