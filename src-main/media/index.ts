import { AppError } from '../../src-shared/errors.ts'
import { mediaCacheEntry, type Db } from '../store/index.ts'
import type { MediaCache } from './media-cache.ts'

export { embeddedIPv4, isLinkLocalAddress, isPrivateAddress } from './address-policy.ts'
export { guardedFetch, MediaFetchError, MEDIA_MAX_BYTES, MEDIA_TIMEOUT_MS, type GuardedFetchOptions } from './guarded-fetch.ts'
export { createMediaCache, sniffImage, type MediaCache, type MediaCacheOptions } from './media-cache.ts'

export interface MediaFiles {
  /** The cached image (or its thumbnail) of a media row; NOT_FOUND until the pipeline has fetched it. */
  open(mediaId: number, variant: 'full' | 'thumb'): { data: Buffer; mime: string }
}

export function createMediaFiles({ db, cache }: { db: Db; cache: MediaCache }): MediaFiles {
  return {
    open(mediaId, variant) {
      const row = mediaCacheEntry(db, mediaId)
      const file = variant === 'thumb' ? row?.thumbPath ?? row?.cachePath : row?.cachePath
      const found = file ? cache.read(file) : null
      if (!found) throw new AppError('NOT_FOUND', `Media ${mediaId} has no cached ${variant === 'thumb' ? 'thumbnail' : 'file'} yet; run the pipeline to fetch it.`)
      return found
    },
  }
}
