import { Modal } from './Modal'

/** An image at full size (within the window), over a dimmed page; Escape or a click outside closes it. */
export function ImageViewer({ src, name, width, height, onClose }: { src: string; name: string; width?: number; height?: number; onClose(): void }) {
  return (
    <Modal title={name} onCancel={onClose} className="image-viewer" testId="image-viewer">
      <img src={src} alt={name} className="image-viewer-img" />
      <div className="image-viewer-caption muted">
        {name}
        {width && height ? ` — ${width}×${height}` : ''}
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  )
}
