/** Git's heuristic plus a share of control bytes: binary files are not shown or edited as text. */
export function looksBinary(buffer: Uint8Array): boolean {
  const sample = buffer.subarray(0, 8000)
  if (sample.includes(0)) return true
  let control = 0
  for (const byte of sample) if (byte < 9 || (byte > 13 && byte < 32)) control++
  return sample.length > 0 && control / sample.length > 0.3
}

/** `\r\n` when most line breaks are CRLF, else `\n`. */
export function detectEol(text: string): '\n' | '\r\n' {
  let crlf = 0
  let lf = 0
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++
    else lf++
  }
  return crlf > lf ? '\r\n' : '\n'
}

/** Converts any line breaks in text written by the model to the file's own. */
export function toEol(text: string, eol: '\n' | '\r\n'): string {
  const lf = text.replace(/\r\n/g, '\n')
  return eol === '\n' ? lf : lf.replace(/\n/g, '\r\n')
}
