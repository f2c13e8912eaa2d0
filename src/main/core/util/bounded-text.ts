import { StringDecoder } from 'node:string_decoder'

export interface BoundedTextOptions {
  /** At most this many characters are kept. */
  maxChars: number
  /** Which end is kept when more was written: the newest text (default) or the first `maxChars`. */
  keep?: 'tail' | 'head'
  /**
   * Tail only: drop whole written chunks while more than one is kept, cutting into a chunk only when it
   * alone is over the limit (a terminal's escape sequences stay whole on replay).
   */
  wholeChunks?: boolean
}

/**
 * Text written in pieces, kept within a bound: the one buffer behind command output (bash,
 * background commands, hooks), server stderr tails (MCP, language servers) and the terminal's
 * replay ring. What is left out is counted, never silent. Positions are absolute (characters
 * ever written), so a reader can ask for "everything after what I saw". Bytes are decoded as
 * UTF-8 per stream, so a character split between two reads stays whole.
 */
export class BoundedText {
  private chunks: string[] = []
  private kept = 0
  private droppedChars = 0
  private readonly decoders = new Map<string, StringDecoder>()

  constructor(private readonly options: BoundedTextOptions) {}

  /** Characters ever written (kept and dropped). */
  get length(): number {
    return this.kept + this.droppedChars
  }

  /** Characters left out: the oldest (`keep: 'tail'`) or the latest (`keep: 'head'`). */
  get dropped(): number {
    return this.droppedChars
  }

  /** Appends text, or bytes of `stream` (decoded as UTF-8, each stream on its own). */
  write(chunk: Buffer | string, stream = ''): void {
    if (typeof chunk === 'string') {
      this.append(chunk)
      return
    }
    let decoder = this.decoders.get(stream)
    if (!decoder) {
      decoder = new StringDecoder('utf8')
      this.decoders.set(stream, decoder)
    }
    this.append(decoder.write(chunk))
  }

  /** The streams ended: what their decoders still hold is written. */
  end(): void {
    for (const decoder of this.decoders.values()) this.append(decoder.end())
  }

  append(text: string): void {
    if (text === '') return
    const { maxChars, keep = 'tail' } = this.options
    if (keep === 'head') {
      const room = Math.max(0, maxChars - this.kept)
      if (room < text.length) this.droppedChars += text.length - room
      if (room === 0) return
      const taken = text.slice(0, room)
      this.chunks.push(taken)
      this.kept += taken.length
      return
    }
    this.chunks.push(text)
    this.kept += text.length
    // Whole chunks go first; only the oldest one left is cut (never, with wholeChunks, while others remain).
    while (this.kept > maxChars) {
      const first = this.chunks[0] as string
      const excess = this.kept - maxChars
      if (first.length <= excess || (this.options.wholeChunks && this.chunks.length > 1)) {
        this.chunks.shift()
        this.drop(first.length)
      } else {
        this.chunks[0] = first.slice(excess)
        this.drop(excess)
      }
    }
  }

  /** Everything kept. */
  text(): string {
    if (this.chunks.length > 1) this.chunks = [this.chunks.join('')]
    return this.chunks[0] ?? ''
  }

  /** The last `chars` characters kept. */
  tail(chars: number): string {
    return this.text().slice(-chars)
  }

  /** Text from absolute position `from` (tail mode); `missed` counts characters dropped before they could be read. */
  since(from: number): { text: string; missed: number } {
    const start = Math.max(from - this.droppedChars, 0)
    return { text: this.text().slice(start), missed: Math.max(this.droppedChars - from, 0) }
  }

  private drop(chars: number): void {
    this.kept -= chars
    this.droppedChars += chars
  }
}
