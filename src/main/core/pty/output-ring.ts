import type { TerminalReplay } from '@shared/schema/terminal'

interface SizeMark {
  /** Absolute offset from which this grid size was in effect. */
  offset: number
  cols: number
  rows: number
}

/**
 * The most recent output of a terminal, bounded, so a client that reloads can
 * repaint the screen. Keeps whole chunks and trims the oldest one when over.
 * Also keeps the grid size each stretch of output was written at: the shell's
 * line editing (wrapping at the margin, redrawing a long line) only reads right
 * when it is replayed at that width.
 */
export class OutputRing {
  private chunks: string[] = []
  private length = 0
  /** Characters ever pushed (the offset just past the newest character). */
  private total = 0
  /** Oldest first; the first one is in effect at the start of the kept output. */
  private sizes: SizeMark[]

  constructor(
    size: { cols: number; rows: number },
    private readonly capacity = 256 * 1024,
  ) {
    this.sizes = [{ offset: 0, cols: size.cols, rows: size.rows }]
  }

  push(data: string): void {
    this.chunks.push(data)
    this.length += data.length
    this.total += data.length
    while (this.length > this.capacity && this.chunks.length > 1) {
      this.length -= (this.chunks.shift() as string).length
    }
    if (this.length > this.capacity) {
      const only = (this.chunks[0] as string).slice(this.length - this.capacity)
      this.chunks = [only]
      this.length = only.length
    }
    this.dropOldSizes()
  }

  /** Output pushed from now on is written at this grid size. */
  resized(cols: number, rows: number): void {
    const same = (mark: SizeMark | undefined) => mark?.cols === cols && mark.rows === rows
    if (same(this.sizes.at(-1))) return
    // A size nothing was written at is no stretch of its own.
    if (this.sizes.length > 1 && (this.sizes.at(-1) as SizeMark).offset === this.total) this.sizes.pop()
    if (same(this.sizes.at(-1))) return
    this.sizes.push({ offset: this.total, cols, rows })
  }

  get end(): number {
    return this.total
  }

  snapshot(): TerminalReplay {
    const data = this.chunks.join('')
    // Join once and keep the joined form: repeated replays stay cheap.
    this.chunks = data ? [data] : []
    const start = this.total - data.length
    const sizes = this.sizes.map((mark) => ({ at: Math.max(0, mark.offset - start), cols: mark.cols, rows: mark.rows }))
    return { data, end: this.total, sizes }
  }

  /** Sizes that ended before the kept output starts say nothing about it. */
  private dropOldSizes(): void {
    const start = this.total - this.length
    while (this.sizes.length > 1 && (this.sizes[1] as SizeMark).offset <= start) this.sizes.shift()
  }
}
