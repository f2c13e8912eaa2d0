import { imageDimensions, imageLimits, imageOverLimit } from '../../images'
import type { ModelInfo } from '../catalog'
import type { ProviderKind } from '../presets'
import type { ImagePart, ModelMessage } from '../types'
import { imageOmittedText } from './request-limits'

/** Base64 characters enough for any header we read (64 KiB of bytes: a JPEG's frame header follows its EXIF block). */
const HEADER_BASE64 = 87_384

function dimensionsOf(part: ImagePart): { width?: number; height?: number } {
  if (part.width !== undefined && part.height !== undefined) return { width: part.width, height: part.height }
  return imageDimensions(Buffer.from(part.data.slice(0, HEADER_BASE64), 'base64'), part.mediaType) ?? {}
}

/**
 * The text sent instead of an image this model or API cannot take, or undefined to send the image. An image the
 * API would refuse is replaced rather than sent: one refused image would fail every later request of the session.
 */
export function imageNote(part: ImagePart, model: ModelInfo, kind: ProviderKind): string | undefined {
  if (!model.capabilities.images) return imageOmittedText(model)
  const over = imageOverLimit({ encoded: part.data.length, ...dimensionsOf(part) }, imageLimits(kind))
  if (over === undefined) return undefined
  return `[image${part.name ? ` ${part.name}` : ''} omitted: ${over}]`
}

/**
 * Notes for every image of a request, decided newest first: each image is checked alone, then against what the
 * API takes per request (count, total size), so when a long session outgrows the limit the oldest images give
 * way to text. Images not in the map are sent.
 */
export function imageNotes(messages: readonly ModelMessage[], model: ModelInfo, kind: ProviderKind): Map<ImagePart, string> {
  const notes = new Map<ImagePart, string>()
  const limits = imageLimits(kind)
  let count = 0
  let total = 0
  for (const image of allImages(messages).reverse()) {
    const note = imageNote(image, model, kind)
    if (note !== undefined) {
      notes.set(image, note)
      continue
    }
    if (count + 1 > limits.maxImages || total + image.data.length > limits.maxTotalBase64) {
      notes.set(image, `[image${image.name ? ` ${image.name}` : ''} omitted: the request already carries as many images as the API takes]`)
      continue
    }
    count++
    total += image.data.length
  }
  return notes
}

function allImages(messages: readonly ModelMessage[]): ImagePart[] {
  const images: ImagePart[] = []
  for (const message of messages) {
    if (message.role === 'user') images.push(...message.content.filter((p): p is ImagePart => p.type === 'image'))
    if (message.role !== 'tool') continue
    for (const result of message.content) {
      if (typeof result.output !== 'string') images.push(...result.output.filter((p): p is ImagePart => p.type === 'image'))
    }
  }
  return images
}
