import type { PartOf } from '@shared/schema/session'
import { MAX_IMAGES_PER_MESSAGE, type StoredImage } from '@shared/schema/image'
import { base64Length, imageError, imageLimits, imageOverLimit, type InspectedImage } from '../images'
import type { ModelInfo, ProviderKind } from '../provider'
import type { SessionStore } from '../session/store'

/** An image attached to a prompt: the file as given and, for a large one, the smaller copy the model is sent. */
export interface PromptImage {
  original: InspectedImage
  scaled?: InspectedImage
}

/**
 * Checked before the turn starts (nothing is sent, nothing is stored): the model must take images, and each image
 * as sent must fit the API. The caller keeps the message, so the user can pick another model and send it again.
 */
export function checkPromptImages(images: readonly PromptImage[], model: ModelInfo, kind: ProviderKind): void {
  if (images.length === 0) return
  if (!model.capabilities.images) {
    throw imageError('ModelWithoutVision', `${model.id} does not accept images; pick a model with vision and send the message again`, {
      model: model.id,
    })
  }
  if (images.length > MAX_IMAGES_PER_MESSAGE) {
    throw imageError('ImageTooLarge', `a message may carry at most ${MAX_IMAGES_PER_MESSAGE} images (this one has ${images.length})`)
  }
  const limits = imageLimits(kind)
  for (const image of images) {
    const sent = image.scaled ?? image.original
    const over = imageOverLimit({ encoded: base64Length(sent.size), width: sent.width, height: sent.height }, limits)
    if (over !== undefined) {
      throw imageError('ImageTooLarge', `${image.original.name} is too large for ${model.id}: ${over}; scale it down and send it again`, {
        file: image.original.name,
        model: model.id,
      })
    }
  }
}

/** Stores a prompt's images with its user message: bytes in the image table, one `image` part each. */
export function storePromptImages(store: SessionStore, sessionId: string, messageId: string, images: readonly PromptImage[]): void {
  const keep = (image: InspectedImage): StoredImage => ({
    imageId: store.addImage({ sessionId, messageId, mediaType: image.mediaType, bytes: image.bytes }),
    mediaType: image.mediaType,
    size: image.size,
    width: image.width,
    height: image.height,
  })
  for (const image of images) {
    const scaled = image.scaled ? keep(image.scaled) : undefined
    store.addPart<PartOf<'image'>>({ sessionId, messageId, type: 'image', name: image.original.name, ...keep(image.original), ...(scaled ? { scaled } : {}) })
  }
}
