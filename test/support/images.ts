import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { crc32, deflateSync } from 'node:zlib'
import { ROOT } from './cli'

const FIXTURES = join(ROOT, 'test', 'fixtures', 'images')

/** A 40×30 JPEG and an extended WebP encoded by Chromium (see test/fixtures/images/README.md). */
export const JPEG_40x30 = readFileSync(join(FIXTURES, 'red-40x30.jpg'))
export const WEBP_40x30 = readFileSync(join(FIXTURES, 'red-40x30.webp'))
/** Modernizr's 1×1 feature-detection WebPs (lossy VP8, lossless VP8L). */
export const WEBP_LOSSY_1x1 = Buffer.from('UklGRiIAAABXRUJQVlA4IBYAAAAwAQCdASoBAAEADsD+JaQAA3AAAAAA', 'base64')
export const WEBP_LOSSLESS_1x1 = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64')
/** The classic 1×1 transparent GIF. */
export const GIF_1x1 = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/**
 * A real PNG of the given size (8-bit RGB): a flat colour, or random pixels (`noise`) that do not compress,
 * for files of a chosen byte size.
 */
export function pngImage(width: number, height: number, options: { noise?: boolean } = {}): Buffer {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 2, 0, 0, 0], 8)
  const row = width * 3 + 1
  const raw = options.noise ? randomBytes(row * height) : Buffer.alloc(row * height, 0x80)
  for (let y = 0; y < height; y++) raw[y * row] = 0
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: options.noise ? 0 : 6 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}
