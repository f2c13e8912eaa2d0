export { inspectImage, readImageFile, type InspectedImage } from './attach'
export { ImageErrorNames, imageError } from './errors'
export { imageDimensions, sniffImageType, type Dimensions } from './inspect'
export { base64Length, imageLimits, imageOverLimit, type ImageLimits } from './limits'
