import { z } from 'zod'
import { defineError } from './define'

/** Failures of the file operations of the editor and the tree (`fs.*`). */
export const FsErrors = {
  /** The file changed on disk since the caller read it (save would overwrite someone else's edit). */
  Conflict: defineError('Conflict', { path: z.string(), mtimeMs: z.number().nullable().optional() }),
  /** The target of a create or rename already exists. */
  AlreadyExists: defineError('AlreadyExists', { path: z.string() }),
} as const

/** Failures of images attached to a message. */
export const ImageErrors = {
  /** The file is missing or cannot be read. */
  ImageUnreadable: defineError('ImageUnreadable', { path: z.string().optional() }),
  /** Not a PNG, JPEG, GIF or WebP (by its bytes), or its header is broken. */
  ImageUnsupported: defineError('ImageUnsupported', { path: z.string().optional() }),
  /** Larger than any provider takes (bytes or pixels), or too many images for one message. */
  ImageTooLarge: defineError('ImageTooLarge', { path: z.string().optional() }),
  /** The turn's model does not take images: nothing was sent, the message can be sent again with another model. */
  ModelWithoutVision: defineError('ModelWithoutVision', { model: z.string().optional() }),
} as const
