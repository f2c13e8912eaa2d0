import { readFile, stat } from 'node:fs/promises'
import { basename } from 'node:path'
import { MAX_IMAGE_BYTES, type ImageMediaType } from '@shared/schema/image'
import { imageError } from './errors'
import { imageDimensions, sniffImageType } from './inspect'

/** An image file checked to be one a provider takes: its real type, size and pixel dimensions. */
export interface InspectedImage {
  name: string
  mediaType: ImageMediaType
  size: number
  width: number
  height: number
  bytes: Buffer
}

const megabytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`

/** Checks bytes said to be an image; throws `ImageUnsupported` or `ImageTooLarge` with a message for the user. */
export function inspectImage(name: string, bytes: Buffer): InspectedImage {
  if (bytes.length > MAX_IMAGE_BYTES) {
    throw imageError('ImageTooLarge', `${name} is ${megabytes(bytes.length)}; images may be at most ${megabytes(MAX_IMAGE_BYTES)}`, { file: name, size: bytes.length })
  }
  const mediaType = sniffImageType(bytes)
  if (!mediaType) {
    throw imageError('ImageUnsupported', `${name} is not a PNG, JPEG, GIF or WebP image (judged by its contents, not its name)`, { file: name })
  }
  const dimensions = imageDimensions(bytes, mediaType)
  if (!dimensions) throw imageError('ImageUnsupported', `${name} looks like a ${mediaType} file but its header is damaged`, { file: name, mediaType })
  return { name, mediaType, size: bytes.length, ...dimensions, bytes }
}

/** Reads and checks an image file (`hotaru run --image`, the `read` tool). */
export async function readImageFile(path: string): Promise<InspectedImage> {
  const name = basename(path)
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    throw imageError('ImageUnreadable', `cannot read image ${path}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`, { file: path })
  })
  if (!info.isFile()) throw imageError('ImageUnreadable', `cannot read image ${path}: not a file`, { file: path })
  // Checked before reading, so a huge file is refused without loading it.
  if (info.size > MAX_IMAGE_BYTES) {
    throw imageError('ImageTooLarge', `${name} is ${megabytes(info.size)}; images may be at most ${megabytes(MAX_IMAGE_BYTES)}`, { file: path, size: info.size })
  }
  const bytes = await readFile(path).catch((error: NodeJS.ErrnoException) => {
    throw imageError('ImageUnreadable', `cannot read image ${path}: ${error.message}`, { file: path })
  })
  return inspectImage(name, bytes)
}
