import { HotaruError } from '@shared/errors'

export const ImageErrorNames = {
  /** The file is missing or cannot be read. */
  ImageUnreadable: 'ImageUnreadable',
  /** Not a PNG, JPEG, GIF or WebP (by its bytes), or its header is broken. */
  ImageUnsupported: 'ImageUnsupported',
  /** Larger than any provider takes (bytes or pixels), or too many images for one message. */
  ImageTooLarge: 'ImageTooLarge',
  /** The turn's model does not take images: nothing was sent, the message can be sent again with another model. */
  ModelWithoutVision: 'ModelWithoutVision',
} as const

export function imageError(name: keyof typeof ImageErrorNames, message: string, data: Record<string, unknown> = {}): HotaruError {
  return new HotaruError(ImageErrorNames[name], { message, ...data })
}
