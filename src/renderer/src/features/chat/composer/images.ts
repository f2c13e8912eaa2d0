import { IMAGE_MEDIA_TYPES, MAX_IMAGE_BYTES, RECOMMENDED_LONG_EDGE, type ImageMediaType, type ImageUpload } from '@shared/schema/image'

/** An image attached in the composer, before it is sent. */
export interface ComposerImage {
  key: number
  name: string
  mediaType: ImageMediaType
  width: number
  height: number
  size: number
  /** The file as given, base64. */
  data: string
  /** A smaller copy for the model when the original is larger than the providers work with. */
  scaled?: string
  /** An object URL of the original, for the thumbnail (revoked when the image is removed or sent). */
  url: string
}

/** Base64 of all images of one message, to stay well inside what one WebSocket message to `serve` may carry. */
export const MAX_MESSAGE_IMAGE_BASE64 = 64 * 1024 * 1024
/**
 * Anthropic measures its 5 MB on the base64 text: a copy is made for any image whose base64 would pass 3.75 MB
 * of bytes, or whose long edge passes the 1568 px the providers work at.
 */
const SCALE_ABOVE_BYTES = Math.floor((5 * 1024 * 1024 * 3) / 4)

let nextKey = 1

export const isImageType = (type: string): type is ImageMediaType => (IMAGE_MEDIA_TYPES as readonly string[]).includes(type)

function toBase64(bytes: Uint8Array): string {
  let binary = ''
  // Chunks keep String.fromCharCode's argument list short.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}

/** The long edge brought to 1568 px, drawn on a canvas; JPEG for photos, PNG for the rest (screenshots stay sharp). */
async function scaledCopy(bitmap: ImageBitmap, mediaType: ImageMediaType): Promise<string> {
  const ratio = Math.min(1, RECOMMENDED_LONG_EDGE / Math.max(bitmap.width, bitmap.height))
  const canvas = document.createElement('canvas')
  canvas.width = Math.max(1, Math.round(bitmap.width * ratio))
  canvas.height = Math.max(1, Math.round(bitmap.height * ratio))
  const context = canvas.getContext('2d')
  if (!context) throw new Error('this browser cannot draw images')
  context.drawImage(bitmap, 0, 0, canvas.width, canvas.height)
  const encode = (type: string, quality?: number): Promise<Blob> =>
    new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the image could not be scaled down'))), type, quality))
  let blob = await encode(mediaType === 'image/jpeg' ? 'image/jpeg' : 'image/png', 0.85)
  // A noisy screenshot can stay large as PNG even at 1568 px: JPEG then.
  if (blob.size > SCALE_ABOVE_BYTES) blob = await encode('image/jpeg', 0.85)
  return toBase64(new Uint8Array(await blob.arrayBuffer()))
}

/**
 * Reads a pasted, dropped or picked file as an image to attach; throws with a message for the user when it is not
 * a PNG, JPEG, GIF or WebP, is too large, or cannot be decoded. Main checks the bytes again.
 */
export async function readComposerImage(file: File): Promise<ComposerImage> {
  const name = file.name || `pasted.${file.type.split('/')[1] ?? 'png'}`
  if (!isImageType(file.type)) throw new Error(`${name}: only PNG, JPEG, GIF and WebP images can be attached`)
  if (file.size > MAX_IMAGE_BYTES) throw new Error(`${name} is ${(file.size / 1024 / 1024).toFixed(1)} MB; images may be at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB`)
  const bytes = new Uint8Array(await file.arrayBuffer())
  const bitmap = await createImageBitmap(file).catch(() => {
    throw new Error(`${name} could not be read as an image`)
  })
  try {
    const large = Math.max(bitmap.width, bitmap.height) > RECOMMENDED_LONG_EDGE || file.size > SCALE_ABOVE_BYTES
    return {
      key: nextKey++,
      name,
      mediaType: file.type,
      width: bitmap.width,
      height: bitmap.height,
      size: file.size,
      data: toBase64(bytes),
      ...(large ? { scaled: await scaledCopy(bitmap, file.type) } : {}),
      url: URL.createObjectURL(file),
    }
  } finally {
    bitmap.close()
  }
}

export function toUploads(images: readonly ComposerImage[]): ImageUpload[] {
  return images.map((image) => ({ name: image.name, data: image.data, ...(image.scaled ? { scaled: image.scaled } : {}) }))
}

export const uploadSize = (images: readonly ComposerImage[]): number => images.reduce((n, i) => n + i.data.length + (i.scaled?.length ?? 0), 0)

/** The image files among pasted or dropped items. */
export function imageFiles(list: FileList | null | undefined): File[] {
  return [...(list ?? [])].filter((file) => file.type.startsWith('image/'))
}
