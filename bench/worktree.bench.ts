/**
 * Worktree benchmark, against plain git in the same run.
 *
 * - git: creating a worktree of a generated 40k-file repository through the worktree service
 *   (branch, checkout, `.worktreeinclude`, its project opened) vs `git worktree add -b` of the same
 *   repository (target: ≤ 1.0×). Runs alternate, medians of WORKTREE_BENCH_RUNS (default 3).
 * - copy: a worktree of a 40k-file folder that is not a git repository, materialized from its
 *   snapshot (target: ≤ 2 s). `firstMs` includes the project's first snapshot (every file read and
 *   stored once); `warmMs` is a later worktree, where the snapshot is incremental; `plainCpMs` is
 *   `cp -a` of the same folder, what the disk alone needs.
 * - preview: the merge preview of 100 changed files (target: ≤ 200 ms), for a git worktree of the
 *   40k-file repository and for a copy.
 *
 *   npm run bench:worktree
 *   WORKTREE_BENCH_FILES=5000 npm run bench:worktree
 *   WORKTREE_BENCH_ONLY=copy-preview npm run bench:worktree   # only the copy's merge preview
 *   WORKTREE_BENCH_ONLY=git npm run bench:worktree     (only the git create, no preview or copy)
 *   WORKTREE_BENCH_ONLY=copy npm run bench:worktree    (only the folder copy: first, warm, `cp -a`)
 *   WORKTREE_BENCH_WORKERS=1,2,4,8 …                   (also plain git with that many checkout workers)
 *
 * Prints one JSON object as the last line of stdout; progress goes to stderr.
 */
import './support/app-modules'
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Services } from '../src/main/core/services'
import { performance } from 'node:perf_hooks'

const FILES = Number(process.env.WORKTREE_BENCH_FILES ?? 40_000)
const RUNS = Number(process.env.WORKTREE_BENCH_RUNS ?? 3)
const CHANGED = 100
/** `git`: only creating git worktrees; `copy`: only the folder copy (first, warm, `cp -a`); `copy-preview`: only the copy's merge preview (one copy, no git repository, no `cp -a`). */
const ONLY = process.env.WORKTREE_BENCH_ONLY ?? ''
if (!['', 'git', 'copy', 'copy-preview'].includes(ONLY)) throw new Error(`WORKTREE_BENCH_ONLY: unknown part "${ONLY}" (known: git, copy, copy-preview)`)
/** Plain `git -c checkout.workers=<n> worktree add` timed as well, for each n listed (`1,2,4,8`). */
const WORKERS = (process.env.WORKTREE_BENCH_WORKERS ?? '').split(',').filter((n) => n !== '').map(Number)

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`)
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return Math.round(sorted[Math.floor(sorted.length / 2)] as number)
}

function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@example.com', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@example.com' },
  })
}

/** Source-like files in ~12-file folders three levels deep (about 1 KB each), plus an ignored `.env`. */
function generate(root: string, files: number): void {
  mkdirSync(root, { recursive: true })
  writeFileSync(join(root, '.gitignore'), '.env\n')
  writeFileSync(join(root, '.worktreeinclude'), '.env\n')
  writeFileSync(join(root, '.env'), 'TOKEN=bench\n')
  for (let i = 0; i < files; i++) {
    const dir = Math.floor(i / 12)
    const folder = join(root, `src/p${dir % 25}/m${Math.floor(dir / 25) % 20}/d${Math.floor(dir / 500)}`)
    if (i % 12 === 0) mkdirSync(folder, { recursive: true })
    writeFileSync(join(folder, `f${i}.ts`), `export const value${i} = ${i}\n`.repeat(30))
  }
}

/** The path of generated file number `n`. */
function fileOf(n: number): string {
  const dir = Math.floor(n / 12)
  return `src/p${dir % 25}/m${Math.floor(dir / 25) % 20}/d${Math.floor(dir / 500)}/f${n}.ts`
}

function changePaths(): string[] {
  return Array.from({ length: CHANGED }, (_, i) => fileOf(i * Math.floor(FILES / CHANGED)))
}

type Result = Record<string, unknown>

/** Creating git worktrees against `git worktree add`, then the merge preview of one of them. */
async function gitPart(services: Services, base: string, paths: string[]): Promise<{ create: Result & { workersMs: Record<string, number> }; previewMs: number; conflicts: number; withRenames: { ms: number; renames: number; untrackedAdds: number } }> {
  log(`generating a ${FILES}-file git repository`)
  const repo = join(base, 'repo')
  generate(repo, FILES)
  git(repo, ['init', '--quiet', '--initial-branch=main'])
  git(repo, ['add', '-A'])
  // Packed, as a cloned repository is; the commit's own `git gc --auto` would repack in the background during the timings.
  git(repo, ['-c', 'gc.auto=0', 'commit', '--quiet', '-m', 'initial'])
  git(repo, ['gc', '--quiet'])
  const parent = services.projects.openFolder(repo)

  // Nothing is removed until every create is timed: ext4 passes over recently deleted inodes when it
  // allocates new ones, so a create right after removing a 40k-file tree pays for that removal.
  const plain: number[] = []
  const ours: number[] = []
  const variants = new Map(WORKERS.map((workers) => [workers, [] as number[]]))
  const timePlain = (run: number, workers?: number): void => {
    const target = join(base, 'plain', `p${run}-${workers ?? 'default'}`)
    const config = workers === undefined ? [] : ['-c', `checkout.workers=${workers}`]
    const start = performance.now()
    git(repo, [...config, 'worktree', 'add', '--quiet', '-b', `plain/p${run}-${workers ?? 'default'}`, target, 'HEAD'])
    const ms = performance.now() - start
    ;(workers === undefined ? plain : (variants.get(workers) as number[])).push(ms)
    log(`git ${config.join(' ')} worktree add: ${Math.round(ms)} ms`)
  }
  const timeOurs = async (run: number): Promise<void> => {
    const start = performance.now()
    await services.worktrees.create(parent, { name: `w${run}` })
    ours.push(performance.now() - start)
    log(`worktree service:  ${Math.round(ours.at(-1) as number)} ms`)
  }
  for (let run = 0; run < RUNS; run++) {
    // Which goes first alternates, and the disk writes back what the other left before each is timed.
    const steps: Array<() => void | Promise<void>> = [() => timePlain(run), () => timeOurs(run), ...WORKERS.map((w) => () => timePlain(run, w))]
    if (run % 2 === 1) steps.reverse()
    for (const step of steps) {
      execFileSync('sync')
      await step()
    }
  }
  const workersMs = Object.fromEntries([...variants].map(([workers, times]) => [workers, median(times)]))
  const ratio = Number((median(ours) / median(plain)).toFixed(2))
  const create = { plainWorktreeAddMs: median(plain), createMs: median(ours), ratio, target: 1.0, ok: ratio <= 1.0, workersMs }
  if (ONLY === 'git') return { create, previewMs: 0, conflicts: 0, withRenames: { ms: 0, renames: 0, untrackedAdds: 0 } }

  log(`merge preview of ${CHANGED} changed files (git)`)
  const kept = (await services.worktrees.list(parent)).find((w) => w.name === `w${RUNS - 1}`)
  for (const path of paths) writeFileSync(join(kept?.path as string, path), 'changed in the worktree\n')
  for (const path of paths.slice(0, 10)) writeFileSync(join(repo, path), 'changed by the user\n')
  /** Times RUNS merge previews of the kept worktree; returns their times and the last preview. */
  const timePreviews = async () => {
    const times: number[] = []
    let last
    for (let run = 0; run < RUNS; run++) {
      const start = performance.now()
      last = await services.worktrees.previewMerge(parent, kept?.name as string)
      times.push(performance.now() - start)
    }
    return { times, last }
  }
  const plainRun = await timePreviews()
  const previews = plainRun.times
  const conflicts = plainRun.last?.conflicts.length ?? 0
  // Agents also move files without `git mv` and add new ones: untracked files take part in rename detection.
  const renamedPaths = Array.from({ length: 20 }, (_, i) => fileOf(i * Math.floor(FILES / CHANGED) + 1))
  for (const path of renamedPaths) renameSync(join(kept?.path as string, path), join(kept?.path as string, path.replace(/\.ts$/, '.moved.ts')))
  for (let i = 0; i < 30; i++) writeFileSync(join(kept?.path as string, `src/new-${i}.ts`), `export const n${i} = ${i}\n`)
  const renameRun = await timePreviews()
  const renamePreview = renameRun.times
  const renames = renameRun.last?.apply.filter((a) => a.from !== undefined).length ?? 0
  return {
    create,
    previewMs: median(previews),
    conflicts,
    /** The same with 20 files moved on disk (found as renames) and 30 untracked new files. */
    withRenames: { ms: median(renamePreview), renames, untrackedAdds: 30 },
  }
}

function machine(): { cpus: number; load1: number } {
  return { cpus: cpus().length, load1: Number((loadavg()[0] ?? 0).toFixed(2)) }
}

async function main(): Promise<void> {
  const { createServices } = await import('../src/main/core/services')
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'hotaru-bench-worktree-')))
  const dataDir = join(base, 'data')
  const services = createServices({ dataDir, transport: 'cli', env: { ...process.env, HOME: base, XDG_CONFIG_HOME: join(base, 'config') } })
  try {
    const paths = changePaths()
    const gitRun = ONLY === '' || ONLY === 'git' ? await gitPart(services, base, paths) : null
    if (ONLY === 'git') {
      process.stdout.write(`${JSON.stringify({ machine: machine(), files: FILES, runs: RUNS, git: gitRun?.create })}\n`)
      return
    }

    log(`generating a ${FILES}-file folder without git`)
    const folder = join(base, 'folder')
    generate(folder, FILES)
    const plainParent = services.projects.openFolder(folder)
    let start = performance.now()
    const first = await services.worktrees.create(plainParent, { name: 'c0' })
    const firstMs = performance.now() - start
    log(`copy, first: ${Math.round(firstMs)} ms`)
    const warm: number[] = []
    const plainCopy: number[] = []
    for (let run = 1; (ONLY === '' || ONLY === 'copy') && run <= RUNS; run++) {
      start = performance.now()
      await services.worktrees.create(plainParent, { name: `c${run}` })
      warm.push(performance.now() - start)
      log(`copy, warm: ${Math.round(warm.at(-1) as number)} ms`)
      // What the disk itself needs for the same files: `cp -a` of the folder.
      start = performance.now()
      execFileSync('cp', ['-a', folder, join(base, `cp${run}`)])
      plainCopy.push(performance.now() - start)
      log(`cp -a: ${Math.round(plainCopy.at(-1) as number)} ms`)
    }
    // The disk's state moves both sides several-fold between runs (ext4 passing over recently freed inodes):
    // the ratio to `cp -a` in the same run is the comparable part.
    const copy = {
      firstMs: Math.round(firstMs),
      warmMs: median(warm),
      warmMinMs: Math.round(Math.min(...warm)),
      plainCpMs: median(plainCopy),
      ratioToPlainCp: Number((median(warm) / median(plainCopy)).toFixed(2)),
      targetMs: 2000,
      ok: median(warm) <= 2000,
    }
    if (ONLY === 'copy') {
      process.stdout.write(`${JSON.stringify({ machine: machine(), files: FILES, runs: RUNS, copy })}\n`)
      return
    }
    // A turn runs between creating a worktree and previewing its merge (a turn that changes 100 files takes
    // longer than this): the snapshot worker, idle meanwhile, settles the copy's stat index (rereads the
    // files written within the racy window) and compresses the first snapshot's raw pack.
    await new Promise((resolve) => setTimeout(resolve, 5_000))
    for (const path of paths) writeFileSync(join(first.worktree.path, path), 'changed in the copy\n')
    const copyPreview: number[] = []
    for (let run = 0; run <= RUNS; run++) {
      start = performance.now()
      const preview = await services.worktrees.previewMerge(plainParent, 'c0')
      copyPreview.push(performance.now() - start)
      log(`copy preview: ${Math.round(copyPreview.at(-1) as number)} ms (${preview.apply.length} files)`)
    }
    // The first comparison of a copy may read what its stat records do not know yet; later ones do not.
    const copyPreviewFirst = copyPreview.shift() as number
    const copyMs = median(copyPreview)
    const result = {
      machine: machine(),
      files: FILES,
      runs: RUNS,
      ...(gitRun ? { git: gitRun.create } : {}),
      ...(warm.length > 0 ? { copy } : {}),
      preview: {
        changedFiles: CHANGED,
        ...(gitRun ? { conflicts: gitRun.conflicts, gitMs: gitRun.previewMs, gitWithRenames: gitRun.withRenames } : {}),
        copyFirstMs: Math.round(copyPreviewFirst),
        copyMinMs: Math.round(Math.min(...copyPreview)),
        copyMs,
        targetMs: 200,
        ok: (gitRun === null || gitRun.previewMs <= 200) && copyMs <= 200 && copyPreviewFirst <= 200,
      },
    }
    process.stdout.write(`${JSON.stringify(result)}\n`)
  } finally {
    await services.dispose()
    rmSync(base, { recursive: true, force: true })
  }
}

await main()
