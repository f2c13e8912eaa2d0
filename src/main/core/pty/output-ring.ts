/**
 * The most recent output of a terminal, bounded, so a client that reloads can
 * repaint the screen. Keeps whole chunks and trims the oldest one when over.
 */
export class OutputRing {
  private chunks: string[] = []
  private length = 0
  /** Characters ever pushed (the offset just past the newest character). */
  private total = 0

  constructor(private readonly capacity = 256 * 1024) {}

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
  }

  get end(): number {
    return this.total
  }

  snapshot(): { data: string; end: number } {
    const data = this.chunks.join('')
    // Join once and keep the joined form: repeated replays stay cheap.
    this.chunks = data ? [data] : []
    return { data, end: this.total }
  }
}
