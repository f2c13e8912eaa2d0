/** Lines shown from the start and the end of a long output before "Show full output". */
export const HEAD_LINES = 40
export const TAIL_LINES = 80

/**
 * The card's text of a tool result: without what was written for the model
 * (the "[Output truncated…]" notice with its read-tool advice, and the exit
 * code line, which the card shows once on its own).
 */
export function cardText(output: string): string {
  return output
    .replace(/^\[Output truncated: [^\n]*\]\n\n/, '')
    .replace(/\n\n\[Output truncated: [^\n]*\]$/, '')
    .replace(/\n\n(?:Exit code: -?\d+|Terminated by signal \w+)$/, '')
    .replace(/\n(?:Exit code: -?\d+|Terminated by signal \w+)$/, '')
}

/** Head and tail of a long text with how many lines lie between, or null when it is short enough to show whole. */
export function headTail(text: string, head = HEAD_LINES, tail = TAIL_LINES): { head: string; tail: string; hidden: number } | null {
  const lines = text.split('\n')
  if (lines.length <= head + tail + 10) return null
  return { head: lines.slice(0, head).join('\n'), tail: lines.slice(-tail).join('\n'), hidden: lines.length - head - tail }
}

/** A bash card's duration: the command's own run time, and the wait for approval before it (when noticeable). */
export function bashTiming(startedAt: number | undefined, endedAt: number | undefined, durationMs: number | undefined): { runMs: number; waitMs: number } | null {
  if (durationMs === undefined || startedAt === undefined || endedAt === undefined) return null
  const wait = endedAt - startedAt - durationMs
  return { runMs: durationMs, waitMs: wait > 500 ? wait : 0 }
}
