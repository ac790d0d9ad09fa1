import { createRequire } from 'node:module'
import type { Worker } from 'tesseract.js'

const require = createRequire(import.meta.url)

export type OcrResult = { text: string; confidence: number }
export type Ocr = {
  ocrImage(image: Buffer): Promise<OcrResult>
  terminate(): Promise<void>
}

type LangData = { code: string; gzip: boolean; langPath: string }

/**
 * Offline OCR: tesseract.js with the English data shipped in @tesseract.js-data/eng, nothing
 * fetched or cached to disk. One worker is started on first use and reused; call terminate().
 */
export const createOcr = (opts: { langData?: LangData } = {}): Ocr => {
  const lang = opts.langData ?? (require('@tesseract.js-data/eng') as LangData)
  let worker: Promise<Worker> | undefined
  const get = () =>
    (worker ??= import('tesseract.js').then(({ createWorker }) =>
      createWorker(lang.code, 1, { langPath: lang.langPath, gzip: lang.gzip, cacheMethod: 'none' })))
  return {
    async ocrImage(image) {
      const w = await get()
      const { data } = await w.recognize(image)
      return { text: data.text.replace(/[ \t]+\n/g, '\n').trim(), confidence: Math.round(data.confidence) / 100 }
    },
    async terminate() {
      if (!worker) return
      const w = await worker
      worker = undefined
      await w.terminate()
    },
  }
}
