import { useState } from 'react'
import type { Media } from '../../src-shared/schemas/bookmarks.ts'
import { safeHref } from '../lib/links.ts'
import { Icon } from './Icon.tsx'

/** A thumbnail that degrades to a labelled tile when the image cannot load (offline, deleted post). */
export function Thumb({ media, className, onOpen, label }: { media: Media; className?: string; onOpen?: () => void; label: string }) {
  const [failed, setFailed] = useState(false)
  const src = media.localUrl && media.type === 'photo' ? media.localUrl : safeHref(media.thumbnailUrl || media.url)
  const kind = media.type === 'photo' ? 'image' : 'video'
  const fallback = `${media.type === 'photo' ? 'Image' : media.type === 'video' ? 'Video' : 'GIF'}${failed ? ' not loaded' : ''}`
  const inner = failed || !src
    ? <span className="thumb-fallback"><Icon name={kind} size={18} /><span>{fallback}</span></span>
    : <img src={src} alt={media.altText ?? ''} loading="lazy" decoding="async" referrerPolicy="no-referrer" onError={() => setFailed(true)} />
  const badge = media.type !== 'photo' && <span className="thumb-badge" aria-hidden="true"><Icon name="play" size={12} /></span>
  // A tile that could not load is a compact label, not an empty 16:9 box the width of the card.
  const cls = `thumb${failed || !src ? ' thumb-failed' : ''} ${className ?? ''}`
  if (!onOpen) return <span className={cls}>{inner}{badge}</span>
  return (
    <button type="button" className={cls} onClick={onOpen} aria-label={failed ? `${fallback}: ${label}` : label}>
      {inner}
      {badge}
    </button>
  )
}

export function MediaStrip({ media, max = 4 }: { media: Media[]; max?: number }) {
  if (!media.length) return null
  const shown = media.slice(0, max)
  return (
    <div className={`media-strip media-n${Math.min(shown.length, 4)}`}>
      {shown.map((m, i) => (
        <Thumb key={i} media={m} label="" />
      ))}
      {media.length > max && <span className="media-more">+{media.length - max}</span>}
    </div>
  )
}
