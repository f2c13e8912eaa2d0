import type { TerminalReplay } from '@shared/schema/terminal'
import { BoundedText } from '../util/bounded-text'

interface SizeMark {
  /** Absolute offset from which this grid size was in effect. */
  offset: number
  cols: number
  rows: number
}

/**
 * The most recent output of a terminal, bounded, so a client that reloads can
 * repaint the screen. Keeps whole chunks and trims the oldest one when over
 * (`BoundedText` with `wholeChunks`), so a replay rarely starts inside an escape sequence.
 * Also keeps the grid size each stretch of output was written at: the shell's
 * line editing (wrapping at the margin, redrawing a long line) only reads right
 * when it is replayed at that width.
 */
export class OutputRing {
  private readonly text: BoundedText
  /** Oldest first; the first one is in effect at the start of the kept output. */
  private sizes: SizeMark[]

  constructor(size: { cols: number; rows: number }, capacity = 256 * 1024) {
    this.text = new BoundedText({ maxChars: capacity, wholeChunks: true })
    this.sizes = [{ offset: 0, cols: size.cols, rows: size.rows }]
  }

  push(data: string): void {
    this.text.append(data)
    this.dropOldSizes()
  }

  /** Output pushed from now on is written at this grid size. */
  resized(cols: number, rows: number): void {
    const same = (mark: SizeMark | undefined) => mark?.cols === cols && mark.rows === rows
    if (same(this.sizes.at(-1))) return
    // A size nothing was written at is no stretch of its own.
    if (this.sizes.length > 1 && (this.sizes.at(-1) as SizeMark).offset === this.end) this.sizes.pop()
    if (same(this.sizes.at(-1))) return
    this.sizes.push({ offset: this.end, cols, rows })
  }

  /** Characters ever pushed (the offset just past the newest character). */
  get end(): number {
    return this.text.length
  }

  snapshot(): TerminalReplay {
    const start = this.text.dropped
    const sizes = this.sizes.map((mark) => ({ at: Math.max(0, mark.offset - start), cols: mark.cols, rows: mark.rows }))
    return { data: this.text.text(), end: this.end, sizes }
  }

  /** Sizes that ended before the kept output starts say nothing about it. */
  private dropOldSizes(): void {
    const start = this.text.dropped
    while (this.sizes.length > 1 && (this.sizes[1] as SizeMark).offset <= start) this.sizes.shift()
  }
}
