import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { HotaruError } from '@shared/errors'
import type { MergeRegion } from '@shared/schema/worktree'

/** One file merged hunk by hunk: `conflicts` regions both sides changed differently (0: merged cleanly). */
export interface TextMerge {
  conflicts: number
  regions: MergeRegion[]
}

const LABELS = ['current', 'base', 'incoming'] as const
const MERGE_TIMEOUT_MS = 60_000
const MERGE_MAX_BUFFER = 64 * 1024 * 1024

/**
 * Merges `incoming` (the worktree's version) into `current` (the main tree's) against `base`, with
 * `git merge-file` (git's own merge: what `git merge` would do to the file). Non-overlapping changes
 * merge; a region both sides changed differently is a conflict region with all three versions.
 */
export async function mergeText(current: string, base: string, incoming: string): Promise<TextMerge> {
  // Markers longer than any marker-like run in the inputs, so content is never taken for a marker.
  const size = Math.max(7, longestMarkerRun(current), longestMarkerRun(base), longestMarkerRun(incoming)) + 1
  const dir = await mkdtemp(join(tmpdir(), 'hotaru-merge-'))
  try {
    const files = LABELS.map((label) => join(dir, label))
    await Promise.all([writeFile(files[0] as string, current), writeFile(files[1] as string, base), writeFile(files[2] as string, incoming)])
    const labels = LABELS.flatMap((label) => ['-L', label])
    const out = await mergeFile(['merge-file', '-p', '--diff3', `--marker-size=${size}`, ...labels, ...files])
    const regions = parseMerged(out, size)
    return { conflicts: regions.filter((r) => r.kind === 'conflict').length, regions }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** The result text of a merge whose conflict regions take `choose(region, index)`. */
export function mergedText(regions: readonly MergeRegion[], choose: (region: Extract<MergeRegion, { kind: 'conflict' }>, index: number) => string): string {
  let index = 0
  return regions.map((r) => (r.kind === 'same' ? r.text : choose(r, index++))).join('')
}

/** Runs `git merge-file`: its exit status is the number of conflicts (so not a failure); a negative one (or a signal) is. */
function mergeFile(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { timeout: MERGE_TIMEOUT_MS, maxBuffer: MERGE_MAX_BUFFER, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (!error) {
        resolve(stdout)
        return
      }
      // Copies of non-git folders may run where git is not installed: their conflicts stay whole files.
      if (error.code === 'ENOENT') {
        reject(new HotaruError('GitMissing', { message: 'git is not installed, so files cannot be merged hunk by hunk' }))
        return
      }
      const code = typeof error.code === 'number' ? error.code : null
      // git exits with the conflict count (capped at 127); 255 is its error status.
      if (code !== null && code > 0 && code < 128) {
        resolve(stdout)
        return
      }
      reject(new HotaruError('GitFailed', { message: `git merge-file failed: ${stderr.trim() || error.message}`, args }))
    })
  })
}

function longestMarkerRun(text: string): number {
  let longest = 0
  for (const match of text.matchAll(/^(<+|\|+|=+|>+)/gm)) longest = Math.max(longest, (match[1] as string).length)
  return longest
}

/** A marker line of `size` characters, with its label for the ones that carry one; any line ending. */
function isMarker(line: string, char: string, size: number, label?: string): boolean {
  const bare = line.replace(/\r?\n$/, '')
  const marker = char.repeat(size)
  return label === undefined ? bare === marker : bare === `${marker} ${label}`
}

/** Splits `git merge-file --diff3` output into common text and conflict regions (markers of `size`). */
export function parseMerged(out: string, size: number): MergeRegion[] {
  const lines = out.match(/[^\n]*\n|[^\n]+$/g) ?? []
  const regions: MergeRegion[] = []
  let same = ''
  let part: 'current' | 'base' | 'incoming' | null = null
  let conflict = { current: '', base: '', incoming: '' }
  for (const line of lines) {
    if (part === null) {
      if (isMarker(line, '<', size, 'current')) {
        if (same !== '') regions.push({ kind: 'same', text: same })
        same = ''
        part = 'current'
        conflict = { current: '', base: '', incoming: '' }
      } else same += line
      continue
    }
    if (part === 'current' && isMarker(line, '|', size, 'base')) part = 'base'
    else if (part !== 'incoming' && isMarker(line, '=', size)) part = 'incoming'
    else if (part === 'incoming' && isMarker(line, '>', size, 'incoming')) {
      regions.push({ kind: 'conflict', ...conflict })
      part = null
    } else conflict[part] += line
  }
  if (part !== null) throw new HotaruError('GitFailed', { message: 'git merge-file printed a conflict without its end marker' })
  if (same !== '') regions.push({ kind: 'same', text: same })
  return regions
}
