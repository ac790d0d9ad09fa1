import { createOcr, imageStats, makeThumbnail, visualTags, type Ocr } from '../ai/local/index.ts'
import type { ImageTools } from './context.ts'

/** The offline image models (ai/local): thumbnails, OCR (one tesseract worker, started on first use), visual tags. */
export function createImageTools(): ImageTools {
  let ocr: Ocr | null = null
  return {
    thumbnail: (image) => makeThumbnail(image),
    async ocr(image) {
      ocr ??= createOcr()
      return (await ocr.ocrImage(image)).text
    },
    async visualTags({ image, ...rest }) {
      const stats = image ? await imageStats(image).catch(() => null) : null
      return visualTags({ ...rest, stats })
    },
    async close() {
      const o = ocr
      ocr = null
      await o?.terminate()
    },
  }
}
