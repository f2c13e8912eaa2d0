import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { TruncateDirection } from './tool'

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
  options: { direction: TruncateDirection; outputDir: string; callId: string; limits?: TruncateLimits },
): { output: string; truncated: boolean; outputPath?: string } {
  const limits = options.limits ?? { maxLines: MAX_OUTPUT_LINES, maxBytes: MAX_OUTPUT_BYTES }
  const result = truncateText(output, options.direction, limits)
  if (!result.truncated) return { output, truncated: false }
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
