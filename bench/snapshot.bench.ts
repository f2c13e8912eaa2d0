/**
 * Snapshot engine benchmark, side by side with a shadow-git baseline in the same run.
 *
 *   npx tsx bench/snapshot.bench.ts                  # ~3k and ~40k tracked files
 *   SNAPSHOT_BENCH_SMALL=1 npx tsx bench/snapshot.bench.ts   # ~3k only
 *   SNAPSHOT_BENCH_FILES=40000 npx tsx bench/snapshot.bench.ts   # the sizes given
 *
 * Each tree is generated (source-like text, a few binaries, an ignored node_modules bulk and
 * an ignored dist/), then measured: first snapshot (and the compression the idle worker does
 * after it), no-change, +1 file (change feed, and full rescan), +100 files, diff, restore 1 /
 * 100 files, disk. The baseline is what shadow-git
 * checkpointers run: `git --git-dir=X --work-tree=T add -A && git write-tree` with
 * `feature.manyFiles`, `diff-tree --numstat`, and `read-tree && checkout-index -a -f`.
 * Prints one JSON object on stdout; progress goes to stderr.
 */
import './support/app-modules'
import { execFileSync } from 'node:child_process'
import { cpus, loadavg, tmpdir } from 'node:os'
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'



const { SnapshotEngine } = await import('../src/main/core/snapshot/index')
type Engine = InstanceType<typeof SnapshotEngine>

const SIZES = process.env.SNAPSHOT_BENCH_FILES
  ? process.env.SNAPSHOT_BENCH_FILES.split(',').map(Number)
  : process.env.SNAPSHOT_BENCH_SMALL
    ? [3_000]
    : [3_000, 40_000]

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`)
}

function prng(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const WORDS = ['const', 'return', 'await', 'export', 'function', 'value', 'items', 'result', 'config', 'index', 'map']

function sourceText(random: () => number, bytes: number): string {
  let out = ''
  while (out.length < bytes) {
    const indent = '  '.repeat(Math.floor(random() * 4))
    const a = WORDS[Math.floor(random() * WORDS.length)]
    const b = WORDS[Math.floor(random() * WORDS.length)]
    out += `${indent}${a} ${b}${Math.floor(random() * 1000)} = ${b}(${Math.floor(random() * 1e6)}) // ${a}\n`
  }
  return out
}

/** Tracked paths, in ~12-file directories 3-4 levels deep. */
function trackedPath(i: number): string {
  const dir = Math.floor(i / 12)
  return `src/p${dir % 25}/m${Math.floor(dir / 25) % 20}/d${Math.floor(dir / 500)}/f${i}.ts`
}

function writeFile(root: string, path: string, content: string | Buffer): void {
  const abs = join(root, path)
  mkdirSync(join(abs, '..'), { recursive: true })
  writeFileSync(abs, content)
}

function generateTree(root: string, files: number): { bytes: number; ignored: number } {
  const random = prng(files)
  let bytes = 0
  writeFile(root, '.gitignore', 'dist/\n*.log\n')
  for (let i = 0; i < files; i++) {
    const roll = random()
    // Mostly small source files, some larger, a few big (mean ~4 KB).
    const size = roll < 0.7 ? 300 + random() * 2700 : roll < 0.95 ? 3000 + random() * 9000 : 12000 + random() * 36000
    let content: string | Buffer
    if (i % 100 === 99) {
      content = Buffer.alloc(Math.floor(size))
      for (let b = 0; b < content.length; b++) content[b] = Math.floor(random() * 256)
    } else {
      content = sourceText(random, size)
    }
    bytes += content.length
    writeFile(root, trackedPath(i), content)
  }
  const ignored = Math.floor(files / 3)
  for (let i = 0; i < ignored; i++) {
    writeFile(root, `node_modules/dep${i % 200}/lib/f${i}.js`, sourceText(random, 800))
  }
  for (let i = 0; i < 100; i++) writeFile(root, `dist/chunk${i}.js`, sourceText(random, 2000))
  return { bytes, ignored: ignored + 100 }
}

function ms(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] as number
}

function sleep(msToWait: number): Promise<void> {
  return new Promise((done) => setTimeout(done, msToWait))
}

async function waitForFeed(engine: Engine, atLeast: number): Promise<void> {
  const deadline = Date.now() + 10_000
  while (engine.changeFeed.pendingPaths < atLeast) {
    if (Date.now() > deadline) throw new Error(`change feed reported ${engine.changeFeed.pendingPaths}/${atLeast} paths`)
    await sleep(5)
  }
}

/** Bytes on disk (allocated blocks) below `dir`. */
function diskBytes(dir: string): number {
  let total = 0
  for (const name of readdirSync(dir)) {
    const stats = lstatSync(join(dir, name))
    total += stats.blocks * 512
    if (stats.isDirectory()) total += diskBytes(join(dir, name))
  }
  return total
}

/** Edits `count` tracked files in place (appends a line), starting at `from`. */
function editFiles(root: string, from: number, count: number, tag: string): void {
  for (let i = from; i < from + count; i++) {
    writeFileSync(join(root, trackedPath(i)), `// ${tag}\n`, { flag: 'a' })
  }
}

/**
 * CPU time of this process's finished child processes (Linux /proc), in ms: with the machine
 * shared, CPU time compares the engine and git more fairly than wall time alone. Null elsewhere.
 */
function childrenCpuMs(): number | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100 // cutime + cstime, in USER_HZ (100/s)
  } catch {
    return null // not Linux: CPU figures for git are left out
  }
}

function ownCpuMs(): number {
  const usage = process.cpuUsage()
  return (usage.user + usage.system) / 1000
}

/** First snapshot into an empty store. */
function firstOurs(root: string, storeDir: string): { engine: Engine; ms: number; cpuMs: number; id: string } {
  const engine = new SnapshotEngine({ root, storeDir })
  const cpu = ownCpuMs()
  const started = performance.now()
  const id = engine.snapshot().id
  return { engine, ms: ms(started), cpuMs: Math.round(ownCpuMs() - cpu), id }
}

async function measureOurs(root: string, engine: Engine, firstId: string, files: number) {
  const storeDir = engine.storeDir
  await sleep(300) // past the racy window of the files just hashed

  const storeBefore = diskBytes(storeDir)
  const noChangeFull: number[] = []
  let noChangeWrites = 0
  let noChangeSameId = true
  for (let k = 0; k < 3; k++) {
    const started = performance.now()
    const result = engine.snapshot()
    noChangeFull.push(ms(started))
    noChangeWrites += result.stats.blobsWritten + result.stats.treesWritten
    noChangeSameId &&= result.id === firstId
  }
  const noChangeStoreGrewBytes = diskBytes(storeDir) - storeBefore

  // +1 file without a change feed: a full rescan with the stat index.
  const plusOneFull: number[] = []
  for (let k = 0; k < 3; k++) {
    writeFile(root, `src/new/full${k}.ts`, `export const full${k} = ${k}\n`)
    const started = performance.now()
    engine.snapshot()
    plusOneFull.push(ms(started))
  }

  let started = performance.now()
  const watch = await engine.watch()
  const watchStartMs = ms(started)
  engine.snapshot() // the full walk every feed start requires
  await sleep(300)
  engine.snapshot()

  started = performance.now()
  const noChangeFeed = engine.snapshot()
  const noChangeFeedMs = ms(started)

  const plusOneFeed: number[] = []
  const plusOneStatted: number[] = []
  for (let k = 0; k < 5; k++) {
    writeFile(root, `src/new/feed${k}.ts`, `export const feed${k} = ${k}\n`)
    await waitForFeed(engine, 1)
    started = performance.now()
    const result = engine.snapshot()
    plusOneFeed.push(ms(started))
    plusOneStatted.push(result.stats.filesStatted)
  }

  const plus100: number[] = []
  const diffs: number[] = []
  let diffEntries = 0
  for (let k = 0; k < 3; k++) {
    await sleep(300)
    const before = engine.snapshot().id
    editFiles(root, k * 100, 100, `plus100-${k}`)
    await waitForFeed(engine, 100)
    started = performance.now()
    const after = engine.snapshot()
    plus100.push(ms(started))
    started = performance.now()
    diffEntries = engine.diff(before, after.id).length
    diffs.push(ms(started))
  }

  const restore = async (count: number): Promise<{ ms: number; written: number }> => {
    const runs: number[] = []
    let written = 0
    for (let k = 0; k < 3; k++) {
      await sleep(300)
      const target = engine.snapshot().id
      editFiles(root, Math.floor(files / 3) + k * count, count, `restore${count}-${k}`)
      await waitForFeed(engine, count)
      // As in the app (and the git baseline): the edits are checkpointed, then the user restores.
      engine.snapshot()
      const startedRestore = performance.now()
      written = engine.restore(target).written
      runs.push(ms(startedRestore))
    }
    return { ms: median(runs), written }
  }
  const restore1 = await restore(1)
  const restore100 = await restore(100)

  await watch.dispose()
  const usage = engine.usage({ exact: true })
  await engine.dispose()
  return {
    noChangeFullMs: median(noChangeFull),
    noChangeFeedMs,
    noChangeWrites,
    noChangeSameId,
    noChangeStoreGrewBytes,
    plusOneFullRescanMs: median(plusOneFull),
    plusOneFeedMs: median(plusOneFeed),
    plusOneFeedFilesStatted: median(plusOneStatted),
    noChangeFeedFilesStatted: noChangeFeed.stats.filesStatted,
    watchStartMs,
    plus100FeedMs: median(plus100),
    diffMs: median(diffs),
    diffEntries,
    restore1Ms: restore1.ms,
    restore1Written: restore1.written,
    restore100Ms: restore100.ms,
    restore100Written: restore100.written,
    storeBytes: usage.totalBytes,
    storeDiskBytes: diskBytes(storeDir),
  }
}

function gitRunner(root: string, gitDir: string) {
  const git = (...args: string[]): string =>
    execFileSync('git', ['-c', 'feature.manyFiles=true', `--git-dir=${gitDir}`, `--work-tree=${root}`, ...args], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    }).trim()
  const checkpoint = (): string => {
    git('add', '-A')
    return git('write-tree')
  }
  return { git, checkpoint }
}

/** First checkpoint into an empty shadow repository. */
function firstGit(root: string, gitDir: string): { ms: number; cpuMs: number | null } {
  execFileSync('git', ['init', '-q', '--bare', gitDir])
  // Shadow-git checkpointers exclude what the engine excludes by default.
  writeFileSync(join(gitDir, 'info', 'exclude'), 'node_modules/\n.DS_Store\nThumbs.db\n')
  const cpu = childrenCpuMs()
  const started = performance.now()
  gitRunner(root, gitDir).checkpoint()
  const after = childrenCpuMs()
  return { ms: ms(started), cpuMs: cpu === null || after === null ? null : Math.round(after - cpu) }
}

function measureGit(root: string, gitDir: string, files: number) {
  const { git, checkpoint } = gitRunner(root, gitDir)
  const timed = (fn: () => void): number => {
    const started = performance.now()
    fn()
    return ms(started)
  }
  const noChange = [0, 1, 2].map(() => timed(checkpoint))
  const plusOne = [0, 1, 2].map((k) => {
    writeFile(root, `src/new/git${k}.ts`, `export const git${k} = ${k}\n`)
    return timed(checkpoint)
  })
  const plus100: number[] = []
  const diffs: number[] = []
  for (let k = 0; k < 3; k++) {
    const before = checkpoint()
    editFiles(root, Math.floor(files / 2) + k * 100, 100, `gitplus100-${k}`)
    let after = ''
    plus100.push(timed(() => (after = checkpoint())))
    diffs.push(timed(() => git('diff-tree', '-r', '--numstat', before, after)))
  }
  // read-tree + checkout-index rewrites every tracked file whatever changed: one measurement covers N = 1 and 100.
  const target = checkpoint()
  editFiles(root, Math.floor((files * 2) / 3), 100, 'gitrestore')
  checkpoint()
  const restoreMs = timed(() => {
    git('read-tree', target)
    git('checkout-index', '-a', '-f')
  })
  return {
    noChangeMs: median(noChange),
    plusOneMs: median(plusOne),
    plus100Ms: median(plus100),
    diffMs: median(diffs),
    restoreMs,
    diskBytes: diskBytes(gitDir),
  }
}

async function benchTree(files: number) {
  const base = mkdtempSync(join(tmpdir(), 'hotaru-snapshot-bench-'))
  try {
    const root = join(base, 'project')
    mkdirSync(root)
    let started = performance.now()
    const generated = generateTree(root, files)
    log(`generated ${files} tracked + ${generated.ignored} ignored files (${(generated.bytes / 1e6).toFixed(1)} MB) in ${ms(started)} ms`)
    await sleep(300)
    // First snapshots alternate between the engine and git, so both see the same machine load.
    const reps = files <= 10_000 ? 3 : 1
    const oursFirst: number[] = []
    const gitFirst: number[] = []
    const oursFirstCpu: number[] = []
    const gitFirstCpu: number[] = []
    let engine: Engine | null = null
    let firstId = ''
    let gitDir = ''
    for (let rep = 0; rep < reps; rep++) {
      if (engine) rmSync(engine.storeDir, { recursive: true, force: true })
      const first = firstOurs(root, join(base, `store-${rep}`))
      engine = first.engine
      firstId = first.id
      oursFirst.push(first.ms)
      oursFirstCpu.push(first.cpuMs)
      if (gitDir) rmSync(gitDir, { recursive: true, force: true })
      gitDir = join(base, `shadow-${rep}.git`)
      const gitRun = firstGit(root, gitDir)
      gitFirst.push(gitRun.ms)
      if (gitRun.cpuMs !== null) gitFirstCpu.push(gitRun.cpuMs)
    }
    if (!engine) throw new Error('no repetition ran')
    log(`first snapshot: ours ${oursFirst.join(', ')} ms; git ${gitFirst.join(', ')} ms`)
    // What the worker does once idle, off the checkpoint's path: compress the raw packs of the first snapshot.
    started = performance.now()
    while (engine.compressDeferred().remaining > 0) {
      // one pack per call, as the idle worker does
    }
    const deferredCompressMs = ms(started)
    await sleep(300) // past the racy window of the files just hashed
    const ours = {
      firstMs: median(oursFirst),
      firstCpuMs: median(oursFirstCpu),
      deferredCompressMs,
      ...(await measureOurs(root, engine, firstId, files)),
    }
    started = performance.now()
    const git = {
      firstMs: median(gitFirst),
      firstCpuMs: gitFirstCpu.length > 0 ? median(gitFirstCpu) : null,
      ...measureGit(root, gitDir, files),
    }
    log(`git measured in ${ms(started)} ms`)
    const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100
    return {
      trackedFiles: files,
      ignoredFiles: generated.ignored,
      trackedMB: Math.round(generated.bytes / 1e5) / 10,
      ours,
      git,
      ratios: {
        first: ratio(ours.firstMs, git.firstMs),
        firstCpu: git.firstCpuMs === null ? null : ratio(ours.firstCpuMs, git.firstCpuMs),
        plusOneFullRescan: ratio(ours.plusOneFullRescanMs, git.plusOneMs),
        plus100: ratio(ours.plus100FeedMs, git.plus100Ms),
        diff: ratio(ours.diffMs, git.diffMs),
        restore100: ratio(ours.restore100Ms, git.restoreMs),
        disk: ratio(ours.storeDiskBytes, git.diskBytes),
      },
      targets: {
        firstAtMostHalfGit: ours.firstMs <= 0.5 * git.firstMs,
        plusOneFeedAtMost5ms: ours.plusOneFeedMs <= 5,
        plusOneFullRescanAtMostGit: ours.plusOneFullRescanMs <= git.plusOneMs,
        restore1AtMost30ms: ours.restore1Ms <= 30,
        restore100WithinBudget: ours.restore100Ms <= 50 + 100,
        diffAtMostGit: ours.diffMs <= git.diffMs,
        noChangeWritesNothing: ours.noChangeWrites === 0 && ours.noChangeSameId,
      },
    }
  } finally {
    rmSync(base, { recursive: true, force: true })
  }
}

const started = performance.now()
const trees = []
for (const files of SIZES) trees.push(await benchTree(files))
const report = {
  machine: {
    cpus: cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown',
    node: process.version,
    platform: process.platform,
    // Other work on the machine skews timings; this says how busy it was.
    loadAverage: loadavg().map((value) => Math.round(value * 100) / 100),
  },
  git: execFileSync('git', ['--version'], { encoding: 'utf8' }).trim(),
  totalMs: ms(started),
  trees,
}
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
