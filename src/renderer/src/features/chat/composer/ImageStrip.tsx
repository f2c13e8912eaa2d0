import { useState } from 'react'
import { ImageViewer } from '../../../components/ImageViewer'
import type { ComposerImage } from './images'
import { Icon } from '../../../components/Icon'

/** Thumbnails of the images attached to the message being written: each opens larger, each removable. */
export function ImageStrip({ images, onRemove }: { images: ComposerImage[]; onRemove(key: number): void }) {
  const [shown, setShown] = useState<ComposerImage | null>(null)
  if (!images.length) return null
  return (
    <>
      <ul className="image-strip" aria-label="Attached images" data-testid="composer-images">
        {images.map((image) => (
          <li key={image.key} className="image-thumb" data-testid="composer-image" title={`${image.name} — ${image.width}×${image.height}${image.scaled ? ', sent scaled down' : ''}`}>
            <button type="button" className="image-thumb-open" onClick={() => setShown(image)} aria-label={`View ${image.name}`}>
              <img src={image.url} alt={image.name} />
            </button>
            <button type="button" className="icon image-thumb-remove" aria-label={`Remove ${image.name}`} onClick={() => onRemove(image.key)}>
              <Icon name="close" />
            </button>
          </li>
        ))}
      </ul>
      {shown && <ImageViewer src={shown.url} name={shown.name} width={shown.width} height={shown.height} onClose={() => setShown(null)} />}
    </>
  )
}
