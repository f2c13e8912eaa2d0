/**
 * How grep and glob print a file name. Most names print as they are. A name holding a newline,
 * another control character or bytes that are not UTF-8 would print as something else (two lines,
 * a broken heading, U+FFFD), so it is written as a JSON string literal instead, with `\xNN` for
 * each byte that is not UTF-8. A JSON string the model copies back into a tool call's `path`
 * decodes to the real name, newlines included.
 */
export interface DisplayedPath {
  text: string
  /** Quoted because it holds control characters or non-UTF-8 bytes. */
  quoted: boolean
}

// eslint-disable-next-line no-control-regex -- control characters are exactly what is looked for
const UNSAFE = /[\u0000-\u001f\u007f\u0085\u2028\u2029]/

export const QUOTED_NAMES_NOTE =
  'Names in double quotes hold newlines, other control characters or bytes that are not UTF-8; they are written as JSON strings (\\xNN for a byte that is not UTF-8). Pass the decoded JSON string as the path.'

export function displayPath(path: string): DisplayedPath {
  if (!UNSAFE.test(path) && !path.startsWith('"')) return { text: path, quoted: false }
  return { text: JSON.stringify(path), quoted: true }
}

/** A name as rg printed it (raw bytes): plain when it is printable UTF-8, quoted with `\xNN` escapes otherwise. */
export function displayPathBytes(bytes: Buffer): DisplayedPath & { path: string } {
  const path = bytes.toString('utf8')
  if (Buffer.byteLength(path) === bytes.length && !path.includes('\ufffd')) return { path, ...displayPath(path) }
  return { path, text: quoteInvalidUtf8(bytes), quoted: true }
}

function quoteInvalidUtf8(bytes: Buffer): string {
  let out = ''
  let i = 0
  while (i < bytes.length) {
    const length = sequenceLength(bytes, i)
    if (length === 0) {
      out += `\\x${(bytes[i] as number).toString(16).padStart(2, '0')}`
      i++
      continue
    }
    out += JSON.stringify(bytes.subarray(i, i + length).toString('utf8')).slice(1, -1)
    i += length
  }
  return `"${out}"`
}

/** The length of the valid UTF-8 sequence starting at `i`, or 0 when the byte there does not start one. */
function sequenceLength(bytes: Buffer, i: number): number {
  const lead = bytes[i] as number
  const length = lead < 0x80 ? 1 : lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0
  if (length === 0 || i + length > bytes.length) return 0
  for (let k = 1; k < length; k++) if (((bytes[i + k] as number) & 0xc0) !== 0x80) return 0
  // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8 either.
  return Buffer.from(bytes.subarray(i, i + length).toString('utf8')).equals(bytes.subarray(i, i + length)) ? length : 0
}
