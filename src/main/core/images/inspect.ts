import type { ImageMediaType } from '@shared/schema/image'

/**
 * The type of an image file from its first bytes (its signature), never from its name: a `.png` that holds a
 * JPEG is sent as a JPEG, and a text file named `.png` is refused before it reaches a provider.
 */
export function sniffImageType(bytes: Uint8Array): ImageMediaType | undefined {
  const ascii = (from: number, to: number): string => String.fromCharCode(...bytes.subarray(from, to))
  if (bytes.length >= 8 && bytes[0] === 0x89 && ascii(1, 4) === 'PNG' && bytes[4] === 0x0d && bytes[5] === 0x0a) return 'image/png'
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg'
  if (bytes.length >= 6 && (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a')) return 'image/gif'
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp'
  return undefined
}

export interface Dimensions {
  width: number
  height: number
}

/**
 * Width and height from the image's header. Each format keeps them at a fixed, documented place (PNG IHDR,
 * GIF logical screen, WebP VP8/VP8L/VP8X chunk, JPEG start-of-frame segment), so no decoder is needed.
 * Undefined when the header is cut short or malformed: such a file would be refused by the provider too.
 */
export function imageDimensions(bytes: Uint8Array, type: ImageMediaType): Dimensions | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const found = (width: number, height: number): Dimensions | undefined => (width > 0 && height > 0 ? { width, height } : undefined)
  try {
    switch (type) {
      case 'image/png':
        return found(view.getUint32(16), view.getUint32(20))
      case 'image/gif':
        return found(view.getUint16(6, true), view.getUint16(8, true))
      case 'image/webp':
        return webpDimensions(bytes, view, found)
      case 'image/jpeg':
        return jpegDimensions(bytes, view, found)
    }
  } catch (error) {
    // A DataView read past the end: the header is cut short.
    if (error instanceof RangeError) return undefined
    throw error
  }
}

type Found = (width: number, height: number) => Dimensions | undefined

function webpDimensions(bytes: Uint8Array, view: DataView, found: Found): Dimensions | undefined {
  const chunk = String.fromCharCode(...bytes.subarray(12, 16))
  // Lossy: a 14-bit width and height after the key frame's start code.
  if (chunk === 'VP8 ') return found(view.getUint16(26, true) & 0x3fff, view.getUint16(28, true) & 0x3fff)
  // Lossless: 14 bits each, minus one, packed after the 0x2f signature byte.
  if (chunk === 'VP8L') {
    const bits = view.getUint32(21, true)
    return found((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1)
  }
  // Extended: 24-bit canvas width and height, minus one.
  if (chunk === 'VP8X') return found(uint24(view, 24) + 1, uint24(view, 27) + 1)
  return undefined
}

function uint24(view: DataView, at: number): number {
  return view.getUint8(at) | (view.getUint8(at + 1) << 8) | (view.getUint8(at + 2) << 16)
}

/** Start-of-frame markers (SOF0–SOF15 but DHT, JPG and DAC, which share the range). */
const isStartOfFrame = (marker: number): boolean => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc

function jpegDimensions(bytes: Uint8Array, view: DataView, found: Found): Dimensions | undefined {
  let at = 2
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return undefined
    const marker = view.getUint8(at + 1)
    // Fill bytes before a marker.
    if (marker === 0xff) {
      at++
      continue
    }
    // Markers without a length.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      at += 2
      continue
    }
    if (isStartOfFrame(marker)) return found(view.getUint16(at + 7), view.getUint16(at + 5))
    // Start of scan or end of image before any frame header: no dimensions.
    if (marker === 0xda || marker === 0xd9) return undefined
    at += 2 + view.getUint16(at + 2)
  }
  return undefined
}
