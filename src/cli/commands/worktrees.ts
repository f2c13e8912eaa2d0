import { HotaruError } from '@shared/errors'
import type { MergePreview, MergeResult, Worktree, WorktreeDiff, WorktreeFileChange } from '@shared/schema/worktree'
import type { ProjectInstance } from '../../main/core/project/instance'
import type { Services } from '../../main/core/services'
import { parseCommandArgs, stringOption } from '../args'
import { cliServices, formatTime, openProject } from '../context'
import { confirmApply } from '../confirm'
import { CliError } from '../errors'

const USAGE = `Usage:
  hotaru worktrees list [--dir PATH] [--json]
  hotaru worktrees diff NAME [--dir PATH] [--json]
  hotaru worktrees merge NAME [--dir PATH] [--dry-run] [--yes] [--skip-conflicts] [--json]
  hotaru worktrees remove NAME [--dir PATH] [--force] [--keep-branch]

Worktrees are created by \`hotaru run --worktree [NAME] …\` (or "New session → in a new worktree").
A merge is always previewed: the worktree's changes since its base, three-way against the main
tree. Files changed in both are conflicts: without --skip-conflicts nothing is written (exit 1);
with it they stay as the main tree has them. Without --yes and without a terminal the preview is
printed and nothing is applied (exit 3). Every merge first records a checkpoint that undoes it.
A git worktree keeps its branch (hotaru/NAME) for a normal git merge or pull request.
Each worktree has its own block of 10 ports (PORTS); commands in it get HOTARU_PORT (the first)
and HOTARU_PORTS (first-last).
Remove refuses while changes are not merged back, unless --force.`

export async function runWorktrees(argv: string[]): Promise<number> {
  const [verb, ...rest] = argv
  if (verb === undefined || verb === '--help' || verb === '-h') {
    process.stdout.write(`${USAGE}\n`)
    return verb === undefined ? 2 : 0
  }
  const handlers: Record<string, (args: string[]) => Promise<number>> = { list, diff, merge, remove }
  const handler = handlers[verb]
  if (!handler) throw new CliError(`unknown worktrees command "${verb}"\n\n${USAGE}`)
  return handler(rest)
}

async function withProject<T>(dir: string | undefined, fn: (services: Services, project: ProjectInstance) => Promise<T>): Promise<T> {
  const services = await cliServices()
  try {
    return await fn(services, mainProject(services, dir))
  } catch (error) {
    if (error instanceof HotaruError) throw new CliError(error.message, 1)
    throw error
  } finally {
    await services.dispose()
  }
}

/** The project whose worktrees are meant: `--dir` itself, or its main project when `--dir` is a worktree. */
export function mainProject(services: Services, dir: string | undefined): ProjectInstance {
  const project = openProject(services, dir)
  return project.worktreeOf ?? project
}

function nameOf(positionals: string[]): string {
  const [name] = positionals
  if (!name) throw new CliError(`a worktree name is required\n\n${USAGE}`)
  return name
}

function out(line = ''): void {
  process.stdout.write(`${line}\n`)
}

function json(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`)
}

function shortBase(base: string): string {
  return base.slice(0, 10)
}

async function list(argv: string[]): Promise<number> {
  const { values } = parseCommandArgs(argv, { dir: { type: 'string' }, json: { type: 'boolean' } }, USAGE)
  return withProject(stringOption(values, 'dir'), async (services, project) => {
    const worktrees = await services.worktrees.list(project)
    if (values.json) json(worktrees)
    else if (worktrees.length === 0) out('No worktrees.')
    else {
      const rows = worktrees.map((w: Worktree) => [
        w.name,
        w.kind,
        w.branch ?? '-',
        w.status,
        String(w.sessions),
        w.changedFiles < 0 ? '?' : String(w.changedFiles),
        shortBase(w.base),
        formatTime(w.createdAt),
        w.ports ? `${w.ports.first}-${w.ports.last}` : '-',
        w.path,
      ])
      const header = ['NAME', 'KIND', 'BRANCH', 'STATUS', 'SESSIONS', 'CHANGED', 'BASE', 'CREATED', 'PORTS', 'PATH']
      const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)))
      for (const row of [header, ...rows]) out(row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] as number))).join('  '))
    }
    return 0
  })
}

function counts(change: WorktreeFileChange): string {
  if (change.from !== undefined && change.similarity === 100) return 'content unchanged'
  const lines = change.binary ? 'binary' : `+${change.additions} -${change.deletions}`
  return change.from !== undefined ? `${change.similarity ?? 0}% similar, ${lines}` : lines
}

/** `a → b` for a renamed file, else its path. */
function pathOf(change: WorktreeFileChange): string {
  return change.from !== undefined ? `${change.from} → ${change.path}` : change.path
}

function letter(change: WorktreeFileChange): string {
  if (change.from !== undefined) return 'R'
  return change.status === 'added' ? 'A' : change.status === 'deleted' ? 'D' : 'M'
}

function printPatch(change: WorktreeFileChange): void {
  if (change.from !== undefined && change.similarity === 100) out(`Renamed ${change.from} → ${change.path}`)
  else if (change.binary) out(`Binary file ${pathOf(change)} differs`)
  else if (change.diff) process.stdout.write(change.diff.endsWith('\n') ? change.diff : `${change.diff}\n`)
}

async function diff(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { dir: { type: 'string' }, json: { type: 'boolean' } }, USAGE, true)
  const name = nameOf(positionals)
  return withProject(stringOption(values, 'dir'), async (services, project) => {
    const result: WorktreeDiff = await services.worktrees.diff(project, name)
    if (values.json) {
      json(result)
      return 0
    }
    if (result.files.length === 0) {
      out(`No changes in worktree ${name} since its base ${shortBase(result.base)}.`)
      return 0
    }
    for (const f of result.files) out(`${letter(f)} ${pathOf(f)}  ${f.from !== undefined ? 'renamed, ' : ''}${counts(f)}`)
    out()
    for (const f of result.files) printPatch(f)
    return 0
  })
}

function printPreview(project: ProjectInstance, p: MergePreview, skipConflicts: boolean): void {
  out(`Merge worktree ${p.name} (base ${shortBase(p.base)}) into ${project.root}:`)
  for (const a of p.apply) out(`  ${(a.from !== undefined ? 'rename' : a.action).padEnd(8)} ${pathOf(a.change)}  ${a.action === 'delete' ? '' : counts(a.change)}`.trimEnd())
  for (const m of p.merged) out(`  merge    ${pathOf(m.change)}  ${counts(m.change)} (changed on both sides in different places)`)
  for (const s of p.same) out(`  same     ${s} (both sides made the same change)`)
  for (const c of p.conflicts) {
    const mainSide = c.main.path === c.path ? `in the main tree (${counts(c.main)})` : `${c.main.path} in the main tree (${c.main.status}, ${counts(c.main)})`
    const where = c.hunks ? `, ${c.hunks} overlapping change${c.hunks === 1 ? '' : 's'}` : ''
    out(`  conflict ${pathOf(c.worktree)}: changed in the worktree (${counts(c.worktree)}) and ${mainSide}${where}; ${skipConflicts ? 'kept as the main tree has it' : 'blocks the merge'}`)
  }
  out(`  ${p.apply.length} to apply, ${p.merged.length} merged, ${p.conflicts.length} conflict(s), ${p.same.length} already the same`)
  for (const c of p.conflicts) {
    out()
    out(`Conflict ${pathOf(c.worktree)}, the worktree's change:`)
    printPatch(c.worktree)
    out(`Conflict ${pathOf(c.worktree)}, the main tree's change${c.main.path === c.path ? '' : ` to ${c.main.path}`}:`)
    printPatch(c.main)
  }
}

function printMerged(result: MergeResult): void {
  if (result.written + result.deleted === 0 && result.skipped.length === 0) {
    out('Nothing to merge: the main tree already has every change.')
    return
  }
  const renamed = result.renamed ? ` (${result.renamed} renamed)` : ''
  const both = result.merged ? ` (${result.merged} merged with the main tree's changes)` : ''
  out(`Merged: ${result.written} written${both}, ${result.deleted} deleted${renamed}${result.skipped.length > 0 ? `, ${result.skipped.length} conflict(s) left as they were` : ''}.`)
  if (result.undoCheckpointId) out(`Undo with: hotaru checkpoints restore ${result.undoCheckpointId} --yes`)
  if (result.branch) out(`Branch ${result.branch} is kept for a git merge or pull request.`)
}

async function merge(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      dir: { type: 'string' },
      'dry-run': { type: 'boolean' },
      yes: { type: 'boolean', short: 'y' },
      'skip-conflicts': { type: 'boolean' },
      json: { type: 'boolean' },
    },
    USAGE,
    true,
  )
  const name = nameOf(positionals)
  const skipConflicts = values['skip-conflicts'] === true
  return withProject(stringOption(values, 'dir'), async (services, project) => {
    const preview = await services.worktrees.previewMerge(project, name)
    const blocked = preview.conflicts.length > 0 && !skipConflicts
    const willApply = !blocked && !values['dry-run'] && (values.yes === true || process.stdin.isTTY)
    if (!values.json) printPreview(project, preview, skipConflicts)
    else if (!willApply) json({ preview, applied: false })
    if (blocked) {
      process.stderr.write(`hotaru worktrees merge: nothing written: ${preview.conflicts.length} conflict(s); resolve them or pass --skip-conflicts\n`)
      return 1
    }
    if (values['dry-run']) return 0
    if (!values.yes) {
      const refused = await confirmApply('hotaru worktrees merge', 'Apply this merge?')
      if (refused !== null) return refused
    }
    const result = await services.worktrees.merge(project, name, { skipConflicts })
    if (values.json) json({ ...result, applied: true })
    else printMerged(result)
    return 0
  })
}

async function remove(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    { dir: { type: 'string' }, force: { type: 'boolean', short: 'f' }, 'keep-branch': { type: 'boolean' } },
    USAGE,
    true,
  )
  const name = nameOf(positionals)
  return withProject(stringOption(values, 'dir'), async (services, project) => {
    const row = services.worktrees.get(project, name)
    const result = await services.worktrees.remove(project, name, { force: values.force === true, keepBranch: values['keep-branch'] === true })
    out(`Removed worktree ${name} (${row.path}).${result.branchKept ? ` Branch ${row.branch ?? ''} is kept.` : ''}`)
    return 0
  })
}
