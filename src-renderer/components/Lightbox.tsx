import { useEffect, useRef, useState } from 'react'
import type { Media } from '../../src-shared/schemas/bookmarks.ts'
import { safeHref } from '../lib/links.ts'
import { Icon } from './Icon.tsx'

/** Full-size image viewer: zoom with buttons, the wheel or +/−, drag to pan, arrows between images. */
export function Lightbox({ media, index, onClose, onIndex }: { media: Media[]; index: number; onClose: () => void; onIndex: (i: number) => void }) {
  const ref = useRef<HTMLDialogElement>(null)
  const [zoom, setZoom] = useState(1)
  const [pan, setPan] = useState({ x: 0, y: 0 })
  const drag = useRef<{ x: number; y: number } | null>(null)
  const m = media[index]
  useEffect(() => {
    ref.current?.showModal()
  }, [])
  useEffect(() => {
    setZoom(1)
    setPan({ x: 0, y: 0 })
  }, [index])
  const step = (d: number) => onIndex((index + d + media.length) % media.length)
  const src = m.localUrl ?? safeHref(m.url) ?? ''
  return (
    <dialog ref={ref} className="lightbox" aria-label={`Image ${index + 1} of ${media.length}`} onClose={onClose}
      onKeyDown={(e) => {
        if (e.key === '+' || e.key === '=') setZoom((z) => Math.min(6, z * 1.25))
        else if (e.key === '-') setZoom((z) => Math.max(1, z / 1.25))
        else if (e.key === '0') { setZoom(1); setPan({ x: 0, y: 0 }) }
        else if (e.key === 'ArrowRight' && media.length > 1) step(1)
        else if (e.key === 'ArrowLeft' && media.length > 1) step(-1)
      }}>
      <div className="lightbox-bar">
        <span>{index + 1} / {media.length}</span>
        <div className="lightbox-tools">
          <button type="button" className="icon-btn" aria-label="Zoom out" onClick={() => setZoom((z) => Math.max(1, z / 1.25))}><Icon name="zoomOut" /></button>
          <span className="zoom-level" aria-live="polite">{Math.round(zoom * 100)}%</span>
          <button type="button" className="icon-btn" aria-label="Zoom in" onClick={() => setZoom((z) => Math.min(6, z * 1.25))}><Icon name="zoomIn" /></button>
          {media.length > 1 && <button type="button" className="icon-btn" aria-label="Previous image" onClick={() => step(-1)}><Icon name="chevronLeft" /></button>}
          {media.length > 1 && <button type="button" className="icon-btn" aria-label="Next image" onClick={() => step(1)}><Icon name="chevronRight" /></button>}
          <button type="button" className="icon-btn" aria-label="Close image viewer" onClick={() => ref.current?.close()} autoFocus><Icon name="x" /></button>
        </div>
      </div>
      <div className="lightbox-stage"
        onWheel={(e) => setZoom((z) => Math.min(6, Math.max(1, z * (e.deltaY < 0 ? 1.15 : 1 / 1.15))))}
        onPointerDown={(e) => { drag.current = { x: e.clientX - pan.x, y: e.clientY - pan.y }; (e.target as Element).setPointerCapture?.(e.pointerId) }}
        onPointerMove={(e) => { if (drag.current && zoom > 1) setPan({ x: e.clientX - drag.current.x, y: e.clientY - drag.current.y }) }}
        onPointerUp={() => { drag.current = null }}
        onDoubleClick={() => setZoom((z) => (z > 1 ? 1 : 2.5))}>
        {m.type === 'photo'
          ? <img src={src} alt={m.altText ?? ''} draggable={false} referrerPolicy="no-referrer" style={{ transform: `translate(${pan.x}px, ${pan.y}px) scale(${zoom})`, cursor: zoom > 1 ? 'grab' : 'zoom-in' }} />
          : <video src={m.localUrl ?? safeHref(m.videoUrl ?? '') ?? undefined} poster={safeHref(m.url) ?? undefined} controls autoPlay />}
      </div>
      {m.altText && <p className="lightbox-alt">{m.altText}</p>}
    </dialog>
  )
}
