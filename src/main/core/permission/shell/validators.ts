/**
 * The one table of read-only commands: for each, the options known to only read
 * and print. A command is read-only when every option it is given is in its entry
 * (short flags alone or bundled, short options with their value attached or next,
 * long options exact, as `--opt=value`, or — for programs that parse GNU-style —
 * abbreviated to a prefix that names one known option and not an unsafe one) and
 * its operands fit. Anything else — an unknown option, one that names an output
 * file, a program to run, a pager, a config file or a preprocessor, a file list
 * read at run time — is not read-only. Used both for the permission decision (the
 * `@read-only` rule) and for whether a bash call may skip its checkpoint.
 */

/** How a long option takes its value. */
type LongKind = 'flag' | 'value' | 'optional'

interface CommandSpec {
  /** Short options that take no value. */
  flags?: string
  /** Short options that take a value (the rest of the word, or the next word). */
  valued?: string
  /** Long options (without `--`) that only read. */
  long?: Readonly<Record<string, LongKind>>
  /**
   * Long options of the real program that write, run something or read a file list at
   * run time: listed so that an abbreviation shared with them is never taken as safe.
   */
  unsafe?: readonly string[]
  /** The program takes unique prefixes of long options (GNU getopt, git's parse-options). */
  abbreviations?: boolean
  /** `-5` means a count (head, tail, grep context, git log). */
  numeric?: boolean
  /** Most operands it may be given (`uniq IN OUT` writes OUT). */
  maxOperands?: number
  /** Every argument is text (echo, test): nothing it is given is an option that writes. */
  anyArguments?: boolean
  /** Even a word only known at run time is harmless text to it (echo; not printf, whose -v assigns). */
  computedArguments?: boolean
  /** Options and operands are checked by a function of its own (find, git branch). */
  check?: (args: readonly string[]) => boolean
}

const GNU = { abbreviations: true } as const

function longs(kind: LongKind, names: string): Record<string, LongKind> {
  return Object.fromEntries(names.trim().split(/\s+/).map((name) => [name, kind]))
}

const HELP = longs('flag', 'help version')

const GREP: CommandSpec = {
  ...GNU,
  numeric: true,
  flags: 'EFGPiywxvcLlmoqsbHhnTZzUraRI',
  valued: 'efmABCdD',
  long: {
    ...HELP,
    ...longs('flag', `extended-regexp fixed-strings basic-regexp perl-regexp ignore-case no-ignore-case word-regexp
      line-regexp null-data no-messages invert-match byte-offset line-number no-line-number line-buffered with-filename
      no-filename only-matching quiet silent text recursive dereference-recursive files-without-match files-with-matches
      count initial-tab null binary no-group-separator`),
    ...longs('value', `regexp file max-count label binary-files directories devices include exclude exclude-from
      exclude-dir before-context after-context context group-separator`),
    ...longs('optional', 'color colour'),
  },
}

const RG_LONG = {
  ...HELP,
  ...longs('flag', `text binary block-buffered byte-offset case-sensitive column no-column count count-matches crlf
    no-crlf debug trace files files-with-matches files-without-match fixed-strings no-fixed-strings follow no-follow
    glob-case-insensitive heading no-heading hidden no-hidden ignore-case ignore-file-case-insensitive include-zero
    invert-match json no-json line-buffered line-number no-line-number line-regexp max-columns-preview mmap no-mmap
    multiline no-multiline multiline-dotall no-config no-ignore no-ignore-dot no-ignore-exclude no-ignore-files
    no-ignore-global no-ignore-parent no-ignore-vcs no-messages no-require-git null null-data one-file-system
    only-matching passthru pcre2 no-pcre2 pcre2-version pretty quiet search-zip-never smart-case sort-files stats
    no-stats trim no-trim type-list unrestricted vimgrep with-filename no-filename word-regexp no-unicode
    no-encoding auto-hybrid-regex no-auto-hybrid-regex no-ignore-messages no-line-buffered no-block-buffered
    no-binary no-text no-context-separator no-max-columns-preview no-crlf no-pcre2-unicode no-sort-files
    no-byte-offset no-heading no-include-zero no-invert-match no-multiline-dotall no-one-file-system
    no-only-matching no-passthru no-search-zip no-unicode no-follow no-glob-case-insensitive no-hidden
    no-ignore-file-case-insensitive no-trim no-column no-ignore-exclude generate`),
  ...longs('value', `after-context before-context context context-separator field-context-separator
    field-match-separator colors color dfa-size-limit encoding engine file glob iglob ignore-file max-columns
    max-count max-depth max-filesize path-separator regex-size-limit regexp replace sort sortr threads type
    type-not type-add type-clear hyperlink-format`),
} satisfies Record<string, LongKind>

const FIND_VALUED = new Set([
  '-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex', '-type', '-xtype',
  '-maxdepth', '-mindepth', '-mtime', '-mmin', '-atime', '-amin', '-ctime', '-cmin', '-newer', '-anewer', '-cnewer',
  '-size', '-perm', '-user', '-group', '-uid', '-gid', '-links', '-inum', '-samefile', '-lname', '-ilname', '-printf',
  '-regextype', '-fstype', '-context', '-used',
])
const FIND_FLAGS = new Set([
  '-nouser', '-nogroup', '-empty', '-executable', '-readable', '-writable', '-depth', '-prune', '-quit', '-print',
  '-print0', '-ls', '-true', '-false', '-not', '!', '-a', '-and', '-o', '-or', ',', '(', ')', '-follow', '-xdev',
  '-mount', '-noleaf', '-daystart', '-ignore_readdir_race', '-noignore_readdir_race', '-warn', '-nowarn',
])

/** `find`: start points, then an expression of tests and `-print`-style actions; no -exec, -delete, -fprint… */
function findReadsOnly(args: readonly string[]): boolean {
  let i = 0
  // Leading options: -H, -L, -P, -D debugopts, -Olevel.
  while (i < args.length) {
    const arg = args[i] as string
    if (arg === '-H' || arg === '-L' || arg === '-P' || /^-O\d$/.test(arg)) i++
    else if (arg === '-D') i += 2
    else break
  }
  // Start points: everything before the first word that begins an expression.
  while (i < args.length && !/^[-!(),]/.test(args[i] as string)) i++
  for (; i < args.length; i++) {
    const arg = args[i] as string
    if (FIND_VALUED.has(arg) || /^-newer[aBcmt][aBcmt]$/.test(arg)) {
      i++
      continue
    }
    if (!FIND_FLAGS.has(arg)) return false
  }
  return true
}

/** `git branch` lists only: no operand unless `--list`/`-l` makes them patterns. */
function gitBranchListsOnly(args: readonly string[]): boolean {
  const spec = GIT_BRANCH
  const listing = args.some((a) => a === '-l' || a === '--list' || /^-[a-zA-Z]*l/.test(a))
  return validate(spec, args, listing ? undefined : 0)
}

const GIT_DIFF_LONG = {
  ...longs('flag', `patch no-patch raw patch-with-raw patch-with-stat numstat shortstat compact-summary name-only
    name-status summary cached staged merge-base no-index minimal patience histogram indent-heuristic
    no-indent-heuristic no-color no-renames rename-empty no-rename-empty pickaxe-all pickaxe-regex text
    ignore-cr-at-eol ignore-space-at-eol ignore-space-change ignore-all-space ignore-blank-lines function-context
    exit-code quiet no-ext-diff textconv no-textconv no-prefix default-prefix ita-invisible-in-index
    ita-visible-in-index full-index binary check irreversible-delete find-copies-harder no-relative
    color-moved-ws no-color-moved-ws no-color-moved follow`),
  ...longs('value', `unified diff-algorithm anchored word-diff-regex diff-filter skip-to rotate-to
    ignore-matching-lines inter-hunk-context src-prefix dst-prefix line-prefix output-indicator-new
    output-indicator-old output-indicator-context`),
  ...longs('optional', `stat dirstat cumulative dirstat-by-file word-diff color color-words color-moved find-renames
    find-copies break-rewrites relative ignore-submodules abbrev submodule ws-error-highlight`),
} satisfies Record<string, LongKind>

const GIT_LOG_LONG = {
  ...GIT_DIFF_LONG,
  ...longs('flag', `oneline abbrev-commit no-abbrev-commit graph no-decorate all-match invert-grep regexp-ignore-case
    extended-regexp fixed-strings perl-regexp basic-regexp merges no-merges first-parent all reverse
    relative-date topo-order date-order author-date-order left-right cherry-pick cherry-mark cherry boundary
    walk-reflogs source use-mailmap mailmap no-mailmap log-size parents children full-history dense sparse
    simplify-merges simplify-by-decoration ancestry-path show-signature no-walk do-walk show-pulls left-only
    right-only no-min-parents no-max-parents remove-empty stdin no-notes show-linear-break date-order
    combined-all-paths no-diff-merges`),
  ...longs('value', `format max-count skip since after until before author committer grep date min-parents
    max-parents grep-reflog exclude glob show-notes notes diff-merges encoding expand-tabs`),
  ...longs('optional', 'pretty decorate decorate-refs decorate-refs-exclude branches tags remotes expand-tabs'),
} satisfies Record<string, LongKind>

const GIT_DIFF_SHORT = { flags: 'psuRaBDwbWzMC0123', valued: 'USGlIO' }
/** Options of git's diff, log and grep that write a file, run a program or page. */
const GIT_UNSAFE = ['output', 'ext-diff', 'open-files-in-pager', 'exec', 'upload-pack', 'receive-pack', 'config']

const GIT_DIFF: CommandSpec = {
  ...GNU,
  numeric: true,
  flags: GIT_DIFF_SHORT.flags,
  // -O<orderfile> reads an order file: harmless; `--output` is what writes.
  valued: GIT_DIFF_SHORT.valued,
  long: GIT_DIFF_LONG,
  unsafe: GIT_UNSAFE,
}

const GIT_LOG: CommandSpec = {
  ...GNU,
  numeric: true,
  flags: `${GIT_DIFF_SHORT.flags}gijEFPmc`,
  valued: `${GIT_DIFF_SHORT.valued}nL`,
  long: GIT_LOG_LONG,
  unsafe: GIT_UNSAFE,
}

const GIT_BRANCH: CommandSpec = {
  ...GNU,
  flags: 'arlvi',
  long: {
    ...longs('flag', 'all remotes list verbose show-current ignore-case no-color no-column omit-empty no-contains no-merged'),
    ...longs('value', 'sort format points-at'),
    ...longs('optional', 'contains merged color column abbrev'),
  },
  unsafe: ['delete', 'move', 'copy', 'force', 'set-upstream-to', 'unset-upstream', 'track', 'no-track', 'edit-description', 'create-reflog', 'recurse-submodules'],
}

const GIT_SUBCOMMANDS = new Map<string, CommandSpec>([
  ['status', {
    ...GNU,
    flags: 'sbvzu',
    long: {
      ...longs('flag', 'short branch show-stash long verbose null no-column ahead-behind no-ahead-behind renames no-renames'),
      ...longs('optional', 'porcelain untracked-files ignored ignore-submodules column find-renames'),
    },
    unsafe: GIT_UNSAFE,
  }],
  ['diff', GIT_DIFF],
  ['log', GIT_LOG],
  ['show', GIT_LOG],
  ['blame', {
    ...GNU,
    flags: 'bltspefnwcMC',
    valued: 'LS',
    long: {
      ...longs('flag', `root show-stats porcelain line-porcelain incremental show-email show-name show-number
        color-lines color-by-age progress no-progress minimal first-parent score-debug`),
      ...longs('value', 'date contents ignore-rev ignore-revs-file encoding reverse'),
      ...longs('optional', 'abbrev'),
    },
    unsafe: GIT_UNSAFE,
  }],
  ['branch', { check: gitBranchListsOnly }],
  ['grep', {
    ...GNU,
    numeric: true,
    flags: 'iIwvhHnlLcEGFPzoqapW',
    valued: 'efABCm',
    long: {
      ...longs('flag', `cached untracked no-index no-exclude-standard exclude-standard recurse-submodules text textconv
        no-textconv ignore-case word-regexp invert-match full-name extended-regexp basic-regexp perl-regexp
        fixed-strings line-number column files-with-matches name-only files-without-match null only-matching count
        heading break show-function function-context and or not all-match quiet no-color`),
      ...longs('value', 'max-depth threads after-context before-context context max-count'),
      ...longs('optional', 'color'),
    },
    unsafe: GIT_UNSAFE,
  }],
  ['ls-files', {
    ...GNU,
    flags: 'cdoisukmztvf',
    valued: 'xX',
    long: {
      ...longs('flag', `cached deleted others ignored stage unmerged killed modified directory no-empty-directory
        exclude-standard error-unmatch full-name recurse-submodules eol deduplicate sparse debug resolve-undo`),
      ...longs('value', 'exclude exclude-from exclude-per-directory format with-tree'),
      ...longs('optional', 'abbrev'),
    },
  }],
  ['rev-parse', {
    ...GNU,
    flags: 'q',
    long: {
      ...longs('flag', `verify quiet sq sq-quote not revs-only no-revs flags no-flags symbolic symbolic-full-name all
        local-env-vars git-dir git-common-dir absolute-git-dir is-inside-git-dir is-inside-work-tree
        is-bare-repository is-shallow-repository show-toplevel show-prefix show-cdup show-superproject-working-tree
        shared-index-path show-object-format show-ref-format keep-dashdash stop-at-non-option`),
      ...longs('value', 'default prefix path-format since after until before resolve-git-dir git-path exclude'),
      ...longs('optional', 'short abbrev-ref branches tags remotes glob disambiguate'),
    },
  }],
])

/**
 * `git [global options] <subcommand> …`: global options that only read. -c, --git-dir,
 * --exec-path… do not, and -C moves git away from the folder its paths were checked against.
 */
const GIT_GLOBAL_FLAGS = new Set([
  '-P', '--no-pager', '--no-optional-locks', '--literal-pathspecs', '--glob-pathspecs', '--noglob-pathspecs',
  '--icase-pathspecs', '--no-replace-objects',
])

function gitReadsOnly(args: readonly string[]): boolean {
  let i = 0
  while (i < args.length) {
    const arg = args[i] as string
    if (!GIT_GLOBAL_FLAGS.has(arg)) break
    i++
  }
  const sub = args[i]
  const spec = sub === undefined ? undefined : GIT_SUBCOMMANDS.get(sub)
  if (!spec) return false
  return spec.check ? spec.check(args.slice(i + 1)) : validate(spec, args.slice(i + 1))
}

const SUMS: CommandSpec = {
  ...GNU,
  flags: 'btz',
  long: { ...HELP, ...longs('flag', 'binary tag text zero') },
  // --check reads the files a checksum list names: a file list read at run time.
  unsafe: ['check', 'ignore-missing', 'quiet', 'status', 'strict', 'warn'],
}

const COMMANDS = new Map<string, CommandSpec>([
  ['ls', {
    ...GNU,
    flags: 'aAbBcCdfFgGhHiklLmnNopqQrRsStuUvxXZ1',
    valued: 'ITw',
    long: {
      ...HELP,
      ...longs('flag', `all almost-all author escape ignore-backups directory dired file-type full-time
        group-directories-first no-group human-readable si dereference-command-line
        dereference-command-line-symlink-to-dir inode kibibytes dereference literal numeric-uid-gid hide-control-chars
        show-control-chars quote-name reverse recursive size context zero`),
      ...longs('value', 'block-size format hide indicator-style ignore quoting-style sort time time-style tabsize width'),
      ...longs('optional', 'color classify hyperlink'),
    },
  }],
  ['cat', { ...GNU, flags: 'AbeEnstTuv', long: { ...HELP, ...longs('flag', 'show-all number-nonblank show-ends number squeeze-blank show-tabs show-nonprinting') } }],
  ['tac', { ...GNU, flags: 'br', valued: 's', long: { ...HELP, ...longs('flag', 'before regex'), ...longs('value', 'separator') } }],
  ['head', { ...GNU, numeric: true, flags: 'qvz', valued: 'cn', long: { ...HELP, ...longs('flag', 'quiet silent verbose zero-terminated'), ...longs('value', 'bytes lines') } }],
  ['tail', {
    ...GNU,
    numeric: true,
    flags: 'fFqvz',
    valued: 'cns',
    long: { ...HELP, ...longs('flag', 'quiet silent retry verbose zero-terminated'), ...longs('value', 'bytes lines max-unchanged-stats pid sleep-interval'), ...longs('optional', 'follow') },
  }],
  ['wc', { ...GNU, flags: 'clmwL', long: { ...HELP, ...longs('flag', 'bytes chars lines words max-line-length'), ...longs('value', 'total') }, unsafe: ['files0-from'] }],
  ['stat', { ...GNU, flags: 'LftZ', valued: 'c', long: { ...HELP, ...longs('flag', 'dereference file-system terse'), ...longs('value', 'format printf cached') } }],
  ['du', {
    ...GNU,
    flags: 'abcDhHklLmPsSx0',
    valued: 'BdtX',
    long: {
      ...HELP,
      ...longs('flag', `null all apparent-size bytes total dereference-args human-readable inodes si count-links
        dereference no-dereference separate-dirs summarize one-file-system`),
      ...longs('value', 'block-size max-depth threshold time-style exclude-from exclude'),
      ...longs('optional', 'time'),
    },
    unsafe: ['files0-from'],
  }],
  ['df', { ...GNU, flags: 'ahHiklPTv', valued: 'Btx', long: { ...HELP, ...longs('flag', 'all human-readable si inodes local no-sync sync portability print-type total'), ...longs('value', 'block-size type exclude-type'), ...longs('optional', 'output') } }],
  ['tree', {
    // -o writes a file; -R with -H writes 00Tree.html into every folder; -H and --fromfile are left out too.
    flags: 'adlfxipsughDFqNQvtrcUCnAJXS',
    valued: 'LPI',
    long: { ...HELP, ...longs('flag', 'noreport dirsfirst filesfirst gitignore prune matchdirs ignore-case du si info'), ...longs('value', 'charset filelimit sort timefmt') },
  }],
  ['file', {
    ...GNU,
    // -C compiles a magic file (writes), -f reads names from a file, -z/-Z may run decompressors, -p touches times.
    flags: 'bcdEhiklLNnrsSv0',
    valued: 'meFP',
    long: {
      ...HELP,
      ...longs('flag', `brief checking-printout debug keep-going list dereference no-dereference no-pad no-buffer raw
        special-files print0 mime mime-type mime-encoding extension apple no-sandbox`),
      ...longs('value', 'magic-file exclude exclude-quiet separator parameter'),
    },
    unsafe: ['compile', 'files-from', 'uncompress', 'uncompress-noreport', 'preserve-date'],
  }],
  ['which', { flags: 'as' }],
  ['type', { flags: 'afptP' }],
  ['echo', { anyArguments: true, computedArguments: true }],
  ['printf', { anyArguments: true }],
  ['true', { anyArguments: true }],
  ['false', { anyArguments: true }],
  ['pwd', { flags: 'LP' }],
  ['test', { anyArguments: true }],
  ['[', { anyArguments: true }],
  ['cd', { flags: 'LPe@' }],
  ['pushd', { flags: 'n' }],
  ['popd', { flags: 'n' }],
  ['grep', GREP],
  ['egrep', GREP],
  ['fgrep', GREP],
  // ripgrep takes no abbreviations; --pre, --hostname-bin and -z/--search-zip run other programs.
  ['rg', { flags: 'abcFHhiILlNnopqsSUuvVwx0', valued: 'ABCdEefgjmMrtT', long: RG_LONG, unsafe: ['pre', 'pre-glob', 'hostname-bin', 'search-zip'] }],
  ['find', { check: findReadsOnly }],
  // -r compares whole trees (a recursive read no path check sees): it asks.
  ['diff', {
    ...GNU,
    numeric: true,
    flags: 'abBcdeEfHilnNpPqsStTuwyZ',
    valued: 'CDFILSUWxX',
    long: {
      ...HELP,
      ...longs('flag', `brief report-identical-files ed normal rcs side-by-side left-column suppress-common-lines
        show-c-function expand-tabs initial-tab suppress-blank-empty paginate new-file unidirectional-new-file
        ignore-case ignore-tab-expansion ignore-trailing-space ignore-space-change ignore-all-space ignore-blank-lines
        text strip-trailing-cr no-dereference ignore-file-name-case no-ignore-file-name-case minimal
        speed-large-files`),
      ...longs('value', `width label show-function-line tabsize ignore-matching-lines exclude exclude-from
        from-file to-file palette horizon-lines ifdef old-line-format new-line-format
        unchanged-line-format line-format old-group-format new-group-format unchanged-group-format
        changed-group-format`),
      ...longs('optional', 'context unified color'),
    },
    unsafe: ['recursive', 'starting-file'],
  }],
  ['cmp', { ...GNU, flags: 'bls', valued: 'in', long: { ...HELP, ...longs('flag', 'print-bytes verbose quiet silent'), ...longs('value', 'ignore-initial bytes') } }],
  ['sort', {
    ...GNU,
    flags: 'bdfgiMhnRrVcCmsuz',
    valued: 'ktTS',
    long: {
      ...HELP,
      ...longs('flag', `ignore-leading-blanks dictionary-order ignore-case general-numeric-sort ignore-nonprinting
        month-sort human-numeric-sort numeric-sort random-sort reverse version-sort merge stable unique
        zero-terminated debug`),
      ...longs('value', 'sort key field-separator temporary-directory buffer-size parallel batch-size random-source'),
      ...longs('optional', 'check'),
    },
    unsafe: ['output', 'compress-program', 'files0-from'],
  }],
  ['uniq', {
    ...GNU,
    maxOperands: 1,
    flags: 'cdDiuz',
    valued: 'fsw',
    long: { ...HELP, ...longs('flag', 'count repeated ignore-case unique zero-terminated'), ...longs('value', 'skip-fields skip-chars check-chars'), ...longs('optional', 'all-repeated group') },
  }],
  ['cut', { ...GNU, flags: 'nsz', valued: 'bcdf', long: { ...HELP, ...longs('flag', 'complement only-delimited zero-terminated'), ...longs('value', 'bytes characters delimiter fields output-delimiter') } }],
  ['tr', { ...GNU, flags: 'cCdst', long: { ...HELP, ...longs('flag', 'complement delete squeeze-repeats truncate-set1') } }],
  ['nl', { ...GNU, flags: 'p', valued: 'bdfhilnsvw', long: { ...HELP, ...longs('flag', 'no-renumber'), ...longs('value', 'body-numbering section-delimiter footer-numbering header-numbering line-increment join-blank-lines number-format number-separator starting-line-number number-width') } }],
  ['rev', { flags: '' }],
  ['paste', { ...GNU, flags: 'sz', valued: 'd', long: { ...HELP, ...longs('flag', 'serial zero-terminated'), ...longs('value', 'delimiters') } }],
  ['seq', { ...GNU, flags: 'w', valued: 'fs', long: { ...HELP, ...longs('flag', 'equal-width'), ...longs('value', 'format separator') } }],
  ['basename', { ...GNU, flags: 'az', valued: 's', long: { ...HELP, ...longs('flag', 'multiple zero'), ...longs('value', 'suffix') } }],
  ['dirname', { ...GNU, flags: 'z', long: { ...HELP, ...longs('flag', 'zero') } }],
  ['realpath', { ...GNU, flags: 'eEmLPqsz', long: { ...HELP, ...longs('flag', 'canonicalize-existing canonicalize-missing logical physical quiet strip no-symlinks zero'), ...longs('value', 'relative-to relative-base') } }],
  ['readlink', { ...GNU, flags: 'femnqsvz', long: { ...HELP, ...longs('flag', 'canonicalize canonicalize-existing canonicalize-missing no-newline quiet silent verbose zero') } }],
  ['md5sum', SUMS], ['sha1sum', SUMS], ['sha224sum', SUMS], ['sha256sum', SUMS], ['sha384sum', SUMS], ['sha512sum', SUMS], ['b2sum', SUMS],
  // -f reads dates from a file (and prints what it cannot parse): a read no path check sees.
  ['date', { ...GNU, flags: 'Ru', valued: 'dr', long: { ...HELP, ...longs('flag', 'rfc-email utc universal debug'), ...longs('value', 'date reference rfc-3339'), ...longs('optional', 'iso-8601') }, unsafe: ['set', 'file'] }],
  ['uname', { ...GNU, flags: 'asnrvmpio', long: { ...HELP, ...longs('flag', 'all kernel-name nodename kernel-release kernel-version machine processor hardware-platform operating-system') } }],
  ['whoami', { ...GNU, long: HELP }],
  ['id', { ...GNU, flags: 'agGnruzZ', long: { ...HELP, ...longs('flag', 'context group groups name real user zero') } }],
  ['git', { check: gitReadsOnly }],
])

type LongMatch = { name: string; kind: LongKind } | 'unsafe' | undefined

/** A long option by its exact name or (where the program allows) a prefix naming one known option. */
function resolveLong(spec: CommandSpec, name: string): LongMatch {
  const safe = spec.long ?? {}
  const unsafe = spec.unsafe ?? []
  if (unsafe.includes(name)) return 'unsafe'
  const exact = Object.hasOwn(safe, name) ? safe[name] : undefined
  if (exact !== undefined) return { name, kind: exact }
  if (!spec.abbreviations || name === '') return undefined
  const candidates = [...Object.keys(safe), ...unsafe].filter((known) => known.startsWith(name))
  if (candidates.length !== 1) return undefined
  const only = candidates[0] as string
  if (unsafe.includes(only)) return 'unsafe'
  return { name: only, kind: safe[only] as LongKind }
}

/** Every option known to read only, and no more operands than allowed. */
function validate(spec: CommandSpec, args: readonly string[], maxOperands = spec.maxOperands): boolean {
  if (spec.anyArguments) return true
  let operands = 0
  let optionsDone = false
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string
    if (optionsDone || arg === '-' || !arg.startsWith('-')) {
      operands++
      continue
    }
    if (arg === '--') {
      optionsDone = true
      continue
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=')
      const match = resolveLong(spec, eq < 0 ? arg.slice(2) : arg.slice(2, eq))
      if (match === undefined || match === 'unsafe') return false
      if (match.kind === 'flag' && eq >= 0) return false
      if (match.kind === 'value' && eq < 0) i++
      continue
    }
    if (spec.numeric && /^-\d+$/.test(arg)) continue
    const short = shortOptions(spec, arg)
    if (short === undefined) return false
    i += short
  }
  return maxOperands === undefined || operands <= maxOperands
}

/** A bundle of short options (`-la`, `-n5`, `-A 3`): how many extra words it takes, or undefined when one is not known. */
function shortOptions(spec: CommandSpec, arg: string): number | undefined {
  const flags = spec.flags ?? ''
  const valued = spec.valued ?? ''
  for (let j = 1; j < arg.length; j++) {
    const letter = arg[j] as string
    if (valued.includes(letter)) return j === arg.length - 1 ? 1 : 0
    if (!flags.includes(letter)) return undefined
  }
  return 0
}

/** True when the program is in the table of read-only commands. */
export function hasReadOnlyEntry(program: string): boolean {
  return COMMANDS.has(program)
}

/** True when a word only known at run time cannot make the program write (`echo $X`). */
export function takesComputedArguments(program: string): boolean {
  return COMMANDS.get(program)?.computedArguments === true
}

/**
 * True when `program args…` only reads and prints, by the table above. `args` are the
 * words bash will pass, globs and braces already expanded.
 */
export function readsOnly(program: string, args: readonly string[]): boolean {
  const spec = COMMANDS.get(program)
  if (!spec) return false
  return spec.check ? spec.check(args) : validate(spec, args)
}

/**
 * Options whose value is a list of file names read at run time (`--files0-from`): what
 * they read is not known, so it is a read no rule can allow.
 */
export function readsFileListAtRunTime(program: string, args: readonly string[]): boolean {
  if (program !== 'sort' && program !== 'wc' && program !== 'du') return false
  return args.some((arg) => {
    if (!arg.startsWith('--')) return false
    const name = arg.slice(2).split('=', 1)[0] as string
    return name.length >= 3 && 'files0-from'.startsWith(name)
  })
}
