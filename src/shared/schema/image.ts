import { z } from 'zod'

/** The image types every provider we speak to accepts (Anthropic, OpenAI, and the compatible servers). */
export const IMAGE_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const
export const ImageMediaType = z.enum(IMAGE_MEDIA_TYPES)
export type ImageMediaType = z.infer<typeof ImageMediaType>

export const ImageId = z.string().regex(/^img_[A-Za-z0-9]{10,40}$/, 'image id')

/** The largest image file taken at all (OpenAI's per-image limit; Anthropic's 5 MB applies to what is sent). */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024
/** Most images one message may carry (Anthropic's limit per request). */
export const MAX_IMAGES_PER_MESSAGE = 20
/** The long edge Anthropic recommends: larger images are scaled down by the API anyway, at a cost in latency. */
export const RECOMMENDED_LONG_EDGE = 1568

/** One stored copy of an image: where its bytes are (the `images` table) and what they are. */
export const StoredImage = z.object({
  imageId: ImageId,
  mediaType: ImageMediaType,
  /** Bytes of the file. */
  size: z.number().int().nonnegative(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
})
export type StoredImage = z.infer<typeof StoredImage>

/** Base64 of at most MAX_IMAGE_BYTES bytes. */
const base64 = z
  .string()
  .min(1)
  .max(Math.ceil(MAX_IMAGE_BYTES / 3) * 4)
  .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'base64')

/**
 * An image attached to a prompt, as the composer sends it: the file as the user gave it and, for a large one,
 * the copy the composer scaled down for the model. Types and sizes are read from the bytes, never trusted.
 */
export const ImageUpload = z
  .object({
    name: z.string().min(1).max(255),
    data: base64,
    scaled: base64.optional(),
  })
  .strict()
export type ImageUpload = z.infer<typeof ImageUpload>
