import { StringDecoder } from 'node:string_decoder'

/**
 * A command's combined output, bounded: the newest `maxChars` are kept and older
 * text is dropped and counted. Positions are absolute, so a reader can ask for
 * "everything after what I saw".
 */
export class OutputBuffer {
  private text = ''
  private dropped = 0
  private readonly decoders = new Map<string, StringDecoder>()

  constructor(private readonly maxChars = 4 * 1024 * 1024) {}

  /** Total characters ever written. */
  get length(): number {
    return this.dropped + this.text.length
  }

  get droppedChars(): number {
    return this.dropped
  }

  write(stream: string, chunk: Buffer): void {
    let decoder = this.decoders.get(stream)
    if (!decoder) {
      decoder = new StringDecoder('utf8')
      this.decoders.set(stream, decoder)
    }
    this.append(decoder.write(chunk))
  }

  end(): void {
    for (const decoder of this.decoders.values()) this.append(decoder.end())
  }

  append(text: string): void {
    if (text === '') return
    this.text += text
    if (this.text.length > this.maxChars) {
      const cut = this.text.length - this.maxChars
      this.text = this.text.slice(cut)
      this.dropped += cut
    }
  }

  /** Everything kept. */
  all(): string {
    return this.text
  }

  /** The last `chars` characters. */
  tail(chars: number): string {
    return this.text.slice(-chars)
  }

  /** Text from absolute position `from`; `missed` counts characters that were dropped before they could be read. */
  since(from: number): { text: string; missed: number } {
    const start = Math.max(from - this.dropped, 0)
    return { text: this.text.slice(start), missed: Math.max(this.dropped - from, 0) }
  }
}
