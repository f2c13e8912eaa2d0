import { BoundedText } from '../util/bounded-text'

/**
 * The most recent output of a terminal, bounded, so a client that reloads can
 * repaint the screen. Keeps whole chunks and trims the oldest one when over
 * (`BoundedText` with `wholeChunks`), so a replay rarely starts inside an escape sequence.
 */
export class OutputRing {
  private readonly text: BoundedText

  constructor(capacity = 256 * 1024) {
    this.text = new BoundedText({ maxChars: capacity, wholeChunks: true })
  }

  push(data: string): void {
    this.text.append(data)
  }

  /** Characters ever pushed (the offset just past the newest character). */
  get end(): number {
    return this.text.length
  }

  snapshot(): { data: string; end: number } {
    return { data: this.text.text(), end: this.text.length }
  }
}
