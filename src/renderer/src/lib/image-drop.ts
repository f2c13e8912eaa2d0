/**
 * Dropping images on a composer attaches them, while a drop anywhere else opens a folder (DropOverlay). The
 * window's drop handler runs first (capture phase) and its overlay covers the page while dragging, so it looks
 * under the pointer for an element marked `data-image-drop` and hands it the files with this event.
 */
export const IMAGE_DROP_EVENT = 'hotaru:image-drop'

/** The composer under the pointer of a drag, if any (through the overlay). */
export function imageDropTarget(e: DragEvent): Element | undefined {
  for (const el of document.elementsFromPoint(e.clientX, e.clientY)) {
    const target = el.closest('[data-image-drop]')
    if (target) return target
  }
  return undefined
}

export function hasImageFiles(e: DragEvent): boolean {
  return [...(e.dataTransfer?.items ?? [])].some((item) => item.kind === 'file' && item.type.startsWith('image/'))
}
