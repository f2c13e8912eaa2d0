import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { SavedOutput, TruncateDirection } from './tool'

export const MAX_OUTPUT_LINES = 2000
export const MAX_OUTPUT_BYTES = 50 * 1024

export interface TruncateLimits {
  maxLines: number
  maxBytes: number
}

export interface Truncated {
  text: string
  truncated: boolean
  /** Lines dropped (whole or partial). */
  omittedLines: number
  totalLines: number
}

/** Keeps the head or tail of `text` within both limits, cutting on line boundaries. */
export function truncateText(text: string, direction: TruncateDirection, limits: TruncateLimits): Truncated {
  const lines = text.split('\n')
  const totalLines = lines.length
  if (lines.length <= limits.maxLines && Buffer.byteLength(text, 'utf8') <= limits.maxBytes) {
    return { text, truncated: false, omittedLines: 0, totalLines }
  }
  const kept: string[] = []
  let bytes = 0
  const ordered = direction === 'head' ? lines : [...lines].reverse()
  for (const line of ordered) {
    const size = Buffer.byteLength(line, 'utf8') + 1
    if (kept.length >= limits.maxLines || bytes + size > limits.maxBytes) break
    kept.push(line)
    bytes += size
  }
  if (kept.length === 0) {
    // One huge line: keep a slice of it rather than nothing.
    const first = ordered[0] ?? ''
    kept.push(direction === 'head' ? first.slice(0, limits.maxBytes) : first.slice(-limits.maxBytes))
  }
  const body = direction === 'head' ? kept : kept.reverse()
  return { text: body.join('\n'), truncated: true, omittedLines: totalLines - kept.length, totalLines }
}

function safeFileName(id: string): string {
  return id.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 120) || 'output'
}

/**
 * Truncates a tool's output for the model. The full text is written to
 * `<outputDir>/<callId>.txt` and the model is told where it is and how to page
 * through it with `read` (offset/limit) or search it with `grep`.
 */
export function truncateForModel(
  output: string,
  options: { direction: TruncateDirection; outputDir: string; callId: string; limits?: TruncateLimits; saved?: SavedOutput & { trailer: string } },
): { output: string; truncated: boolean; outputPath?: string } {
  const limits = options.limits ?? { maxLines: MAX_OUTPUT_LINES, maxBytes: MAX_OUTPUT_BYTES }
  const result = truncateText(output, options.direction, limits)
  if (!result.truncated) return { output, truncated: false }
  if (options.saved) return truncatedSaved(result, options.direction, options.saved)
  mkdirSync(options.outputDir, { recursive: true })
  const outputPath = join(options.outputDir, `${safeFileName(options.callId)}.txt`)
  writeFileSync(outputPath, output)
  const where = options.direction === 'head' ? 'first' : 'last'
  const hint =
    `[Output truncated: ${result.totalLines} lines, ${Buffer.byteLength(output, 'utf8')} bytes; showing the ${where} ` +
    `${result.totalLines - result.omittedLines} lines. The full output is saved at ${outputPath} — use the read tool ` +
    'on that path with offset/limit to see other parts, or grep to search it.]'
  const text = options.direction === 'head' ? `${result.text}\n\n${hint}` : `${hint}\n\n${result.text}`
  return { output: text, truncated: true, outputPath }
}

const MiB = 1024 * 1024

function amount(bytes: number): string {
  const exact = `${bytes.toLocaleString('en-US')} bytes`
  return bytes >= MiB ? `${exact} (${(bytes / MiB).toFixed(1)} MiB)` : exact
}

/**
 * The note for output a tool saved itself while it streamed (bash): the totals the command wrote, what is
 * shown and what was left out from which end, where the copy is and whether it holds all of it.
 */
function truncatedSaved(result: Truncated, direction: TruncateDirection, saved: SavedOutput & { trailer: string }): { output: string; truncated: boolean; outputPath?: string } {
  const shown = Math.min(saved.bytes, Math.max(0, Buffer.byteLength(result.text, 'utf8') - Buffer.byteLength(saved.trailer, 'utf8')))
  const [end, other] = direction === 'head' ? ['first', 'last'] : ['last', 'first']
  const facts =
    `[Output truncated: the command wrote ${amount(saved.bytes)} in ${saved.lines.toLocaleString('en-US')} lines; ` +
    `shown here: its ${end} ${amount(shown)}; left out: the ${other} ${amount(saved.bytes - shown)}.`
  const where = saved.complete
    ? ` The full output is saved at ${saved.path} (complete) — use the read tool on that path with offset/limit to see other parts, or grep to search it.]`
    : saved.savedBytes > 0
      ? ` A copy is saved at ${saved.path}, but it is incomplete: it holds only the first ${amount(saved.savedBytes)}; ` +
        `writing it stopped: ${saved.reason ?? 'unknown reason'}. ` +
        'Use the read tool on that path with offset/limit, or grep, for what it holds.]'
      : ` No copy of the full output could be saved (${saved.reason ?? 'writing it failed'}): what is shown here is all that is left of it.]`
  const hint = facts + where
  const text = direction === 'head' ? `${result.text}\n\n${hint}` : `${hint}\n\n${result.text}`
  return { output: text, truncated: true, ...(saved.savedBytes > 0 ? { outputPath: saved.path } : {}) }
}
