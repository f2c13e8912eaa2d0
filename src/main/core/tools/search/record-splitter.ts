/** One field of a record: its first `maxFieldBytes` bytes and how many more there were. */
export interface SplitField {
  bytes: Buffer
  /** Bytes of this field past the cap: seen and counted, not kept. */
  dropped: number
}

/**
 * Splits a byte stream into records of fields, each field ending at the next byte of
 * `separators` (cycled: grep's `--null` output is `path\0line\n`, so a path may hold a newline
 * and a line may not). Work is linear in the input and memory is bounded by the cap, whatever
 * the length of a field: a 150 MB line costs `maxFieldBytes`, not a re-joined string per chunk.
 */
export class RecordSplitter {
  private parts: Buffer[] = []
  private kept = 0
  private dropped = 0
  private fields: SplitField[] = []

  constructor(
    private readonly separators: readonly number[],
    /** One cap for every field, or one per separator. */
    private readonly maxFieldBytes: number | readonly number[],
    private readonly onRecord: (fields: SplitField[]) => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0
    while (start < chunk.length) {
      const separator = this.separators[this.fields.length] as number
      const end = chunk.indexOf(separator, start)
      if (end < 0) {
        this.keep(chunk.subarray(start))
        return
      }
      this.keep(chunk.subarray(start, end))
      this.endField()
      start = end + 1
    }
  }

  /** The stream ended: a last record without its final separator still counts. */
  end(): void {
    if (this.kept === 0 && this.dropped === 0 && this.fields.length === 0) return
    this.endField(true)
  }

  private keep(bytes: Buffer): void {
    const cap = typeof this.maxFieldBytes === 'number' ? this.maxFieldBytes : (this.maxFieldBytes[this.fields.length] as number)
    const room = cap - this.kept
    if (room <= 0) {
      this.dropped += bytes.length
      return
    }
    // A copy: a subarray would pin the whole (possibly large) chunk for as long as the field lives.
    const taken = Buffer.from(bytes.subarray(0, room))
    if (taken.length > 0) this.parts.push(taken)
    this.kept += taken.length
    this.dropped += bytes.length - taken.length
  }

  private endField(final = false): void {
    this.fields.push({ bytes: this.parts.length === 1 ? (this.parts[0] as Buffer) : Buffer.concat(this.parts), dropped: this.dropped })
    this.parts = []
    this.kept = 0
    this.dropped = 0
    if (final || this.fields.length === this.separators.length) {
      const fields = this.fields
      this.fields = []
      this.onRecord(fields)
    }
  }
}
