/**
 * The last lines of a stream (a server's stderr): enough to explain a failure
 * without holding a chatty server's whole log in memory.
 */
export class LineTail {
  private readonly lines: string[] = []
  private partial = ''

  constructor(
    private readonly maxLines = 50,
    /** Longer lines are cut: one runaway line must not fill the failure reason. */
    private readonly maxLineLength = 500,
  ) {}

  push(chunk: string): void {
    const parts = (this.partial + chunk).split(/\r?\n/)
    this.partial = parts.pop() ?? ''
    for (const line of parts) this.add(line)
    if (this.partial.length > this.maxLineLength * 4) {
      this.add(this.partial)
      this.partial = ''
    }
  }

  /** All kept lines, including an unfinished last one. */
  get(): string[] {
    return this.partial ? [...this.lines, this.cut(this.partial)] : [...this.lines]
  }

  /** The last `count` non-empty lines joined for a one-paragraph reason. */
  summary(count = 10): string {
    return this.get()
      .filter((line) => line.trim() !== '')
      .slice(-count)
      .join('\n')
  }

  private add(line: string): void {
    this.lines.push(this.cut(line))
    if (this.lines.length > this.maxLines) this.lines.shift()
  }

  private cut(line: string): string {
    return line.length > this.maxLineLength ? `${line.slice(0, this.maxLineLength)}…` : line
  }
}
