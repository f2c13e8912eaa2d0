import { useEffect, useState } from 'react'
import type { PartOf } from '@shared/schema/session'
import { ImageViewer } from '../../../components/ImageViewer'
import { unwrap } from '../../../ipc'
import { useChatController } from '../../../stores/chat'

type ImagePart = PartOf<'image'>

/** Data URLs of stored images, loaded once per window (an image's bytes never change). */
const loaded = new Map<string, Promise<string>>()

function useImageUrl(part: ImagePart, imageId: string): { url?: string; error?: string } {
  const chat = useChatController()
  const [state, setState] = useState<{ url?: string; error?: string }>({})
  useEffect(() => {
    let live = true
    const key = `${part.sessionId}:${imageId}`
    let load = loaded.get(key)
    if (!load) {
      load = unwrap(chat.bridge.session.image({ sessionId: part.sessionId, imageId })).then((image) => `data:${image.mediaType};base64,${image.data}`)
      // A failed load is tried again the next time the image is shown.
      load.catch(() => loaded.delete(key))
      loaded.set(key, load)
    }
    load.then(
      (url) => live && setState({ url }),
      (error: unknown) => live && setState({ error: error instanceof Error ? error.message : String(error) }),
    )
    return () => {
      live = false
    }
  }, [chat, part.sessionId, imageId])
  return state
}

function MessageImage({ part }: { part: ImagePart }) {
  // The thumbnail shows the smaller copy when there is one; the viewer the original.
  const thumb = useImageUrl(part, part.scaled?.imageId ?? part.imageId)
  const [open, setOpen] = useState(false)
  return (
    <li className="image-thumb" data-testid="message-image" title={`${part.name} — ${part.width}×${part.height}`}>
      <button type="button" className="image-thumb-open" onClick={() => setOpen(true)} aria-label={`View ${part.name}`}>
        {thumb.url ? <img src={thumb.url} alt={part.name} /> : <span className="muted">{thumb.error ? 'image unavailable' : '…'}</span>}
      </button>
      {open && <FullImage part={part} onClose={() => setOpen(false)} />}
    </li>
  )
}

function FullImage({ part, onClose }: { part: ImagePart; onClose(): void }) {
  const full = useImageUrl(part, part.imageId)
  if (!full.url) return null
  return <ImageViewer src={full.url} name={part.name} width={part.width} height={part.height} onClose={onClose} />
}

/** The images of a user message, as thumbnails that open larger. */
export function MessageImages({ parts }: { parts: ImagePart[] }) {
  if (!parts.length) return null
  return (
    <ul className="image-strip" aria-label="Images">
      {parts.map((part) => (
        <MessageImage key={part.id} part={part} />
      ))}
    </ul>
  )
}
