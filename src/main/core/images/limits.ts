import type { ProviderKind } from '../provider/presets'

/**
 * What each API takes, per image and per request. Anthropic measures its 5 MB on the base64 text
 * ("image exceeds 5 MB maximum: N bytes > 5242880 bytes") and refuses a side over 8000 px; OpenAI takes
 * 20 MB an image and 50 MB of images a request. The compatible servers follow OpenAI's wire format; their
 * own limits vary, so OpenAI's are used.
 */
export interface ImageLimits {
  /** Base64 characters one image may take on the wire. */
  maxBase64: number
  /** Base64 characters all images of one request may take. */
  maxTotalBase64: number
  /** Longest side in pixels, where the API has a hard limit. */
  maxEdge?: number
  maxImages: number
}

const MB = 1024 * 1024

export function imageLimits(kind: ProviderKind): ImageLimits {
  if (kind === 'anthropic') return { maxBase64: 5 * MB, maxTotalBase64: 32 * MB, maxEdge: 8000, maxImages: 100 }
  return { maxBase64: Math.floor((20 * MB * 4) / 3), maxTotalBase64: Math.floor((50 * MB * 4) / 3), maxImages: 500 }
}

export const base64Length = (bytes: number): number => Math.ceil(bytes / 3) * 4

/** Why one image cannot go to this API as it is, or undefined when it can. */
export function imageOverLimit(image: { encoded: number; width?: number; height?: number }, limits: ImageLimits): string | undefined {
  const { encoded } = image
  if (encoded > limits.maxBase64) {
    return `${(encoded / MB).toFixed(1)} MB encoded, over the ${(limits.maxBase64 / MB).toFixed(0)} MB the API takes per image`
  }
  const edge = Math.max(image.width ?? 0, image.height ?? 0)
  if (limits.maxEdge !== undefined && edge > limits.maxEdge) return `${image.width}×${image.height} px, over the ${limits.maxEdge} px the API takes per side`
  return undefined
}
