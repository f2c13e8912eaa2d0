import { BoundedText } from './bounded-text'

/**
 * The last lines of a stream (a server's stderr): enough to explain a failure
 * without holding a chatty server's whole log in memory. A line view over a
 * `BoundedText` with room for twice `maxLines` lines of `maxLineLength` (longer
 * lines take more of it, so fewer of them are shown).
 */
export class LineTail {
  private readonly text: BoundedText

  constructor(
    private readonly maxLines = 50,
    /** Longer lines are cut: one runaway line must not fill the failure reason. */
    private readonly maxLineLength = 500,
  ) {
    this.text = new BoundedText({ maxChars: 2 * (maxLines + 1) * (maxLineLength + 2) })
  }

  push(chunk: string): void {
    this.text.append(chunk)
  }

  /** The last `maxLines` whole lines, plus an unfinished last one. */
  get(): string[] {
    const lines = this.text.text().split(/\r?\n/)
    const partial = lines.pop() ?? ''
    // The first line lost its start when older text was dropped: shown only if there is nothing else.
    if (this.text.dropped > 0 && lines.length > this.maxLines) lines.shift()
    return [...lines.slice(-this.maxLines), ...(partial ? [partial] : [])].map((line) => this.cut(line))
  }

  /** The last `count` non-empty lines joined for a one-paragraph reason. */
  summary(count = 10): string {
    return this.get()
      .filter((line) => line.trim() !== '')
      .slice(-count)
      .join('\n')
  }

  private cut(line: string): string {
    return line.length > this.maxLineLength ? `${line.slice(0, this.maxLineLength)}…` : line
  }
}
