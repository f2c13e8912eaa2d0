import { z } from 'zod'
import { TerminalId } from '../schema/terminal'

/**
 * Terminal output over the `serve` WebSocket travels as binary frames, not JSON text: the
 * page hands the bytes to xterm as they are (xterm decodes UTF-8 itself), so megabytes of
 * output are never turned into JavaScript strings, escaped, parsed and collected again.
 *
 * Layout: one kind byte, the header's length (uint32, little-endian), the header as JSON
 * (the event envelope without the output), then the output as UTF-8.
 */
export const PTY_DATA_FRAME = 1

const PREFIX_BYTES = 5

export const PtyFrameHeader = z.object({
  projectId: z.string().optional(),
  seq: z.number().int(),
  id: TerminalId,
  /** Characters (UTF-16 code units) the terminal had produced before this output. */
  offset: z.number().int().min(0),
  /** The output's length in characters, the unit offsets, acks and replays count in. */
  chars: z.number().int().min(0),
})
export type PtyFrameHeader = z.infer<typeof PtyFrameHeader>

export interface PtyFrame {
  header: PtyFrameHeader
  /** The output as UTF-8, a view into the frame (no copy). */
  bytes: Uint8Array
}

const encoder = new TextEncoder()
const decoder = new TextDecoder()

export function encodePtyFrame(header: PtyFrameHeader, data: string): Uint8Array {
  const head = encoder.encode(JSON.stringify(header))
  const body = encoder.encode(data)
  const frame = new Uint8Array(PREFIX_BYTES + head.length + body.length)
  frame[0] = PTY_DATA_FRAME
  new DataView(frame.buffer).setUint32(1, head.length, true)
  frame.set(head, PREFIX_BYTES)
  frame.set(body, PREFIX_BYTES + head.length)
  return frame
}

/** Reads a frame made by `encodePtyFrame`; anything else is refused with the reason. */
export function decodePtyFrame(frame: ArrayBuffer | Uint8Array): PtyFrame {
  const bytes = frame instanceof Uint8Array ? frame : new Uint8Array(frame)
  if (bytes.length < PREFIX_BYTES) throw new Error(`terminal frame of ${bytes.length} bytes is too short`)
  if (bytes[0] !== PTY_DATA_FRAME) throw new Error(`unknown binary frame kind ${bytes[0]}`)
  const headLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(1, true)
  const bodyStart = PREFIX_BYTES + headLength
  if (bodyStart > bytes.length) throw new Error(`terminal frame header of ${headLength} bytes overruns the frame`)
  let raw: unknown
  try {
    raw = JSON.parse(decoder.decode(bytes.subarray(PREFIX_BYTES, bodyStart)))
  } catch (error) {
    throw new Error(`terminal frame header is not JSON: ${(error as Error).message}`, { cause: error })
  }
  const header = PtyFrameHeader.safeParse(raw)
  if (!header.success) throw new Error(`terminal frame header is malformed: ${header.error.issues[0]?.message ?? 'invalid'}`)
  return { header: header.data, bytes: bytes.subarray(bodyStart) }
}
