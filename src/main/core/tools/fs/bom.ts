const BOM = '\uFEFF'

/** Splits a leading byte order mark off text, so matching and diffs see only the content. */
export function splitBom(text: string): { bom: string; body: string } {
  return text.startsWith(BOM) ? { bom: BOM, body: text.slice(1) } : { bom: '', body: text }
}
