import { loadPipelinePosts, writeMediaAnalysis, type MediaAnalysisWrite, type PipelineMedia } from '../../store/index.ts'
import type { RunContext, Stage } from '../context.ts'

const FETCH_CONCURRENCY = 4

/**
 * Stage 2: every image and video/GIF poster is fetched once into the media cache, thumbnailed,
 * OCR'd and tagged; alt text is kept; a provider that can see adds a description. A media row that
 * already has its cache file is not fetched again (unless the job is forced).
 */
export const visionAnalysis: Stage = {
  name: 'vision_analysis',
  index: 2,
  batchSize: 50,
  async run(ids, ctx) {
    const posts = loadPipelinePosts(ctx.db, ids)
    const work = posts.flatMap((p) => p.media.filter((m) => ctx.force || (ctx.mediaCache ? !m.cachePath : !m.visualTags)).map((m) => ({ postId: p.id, m })))
    const writes: MediaAnalysisWrite[] = []
    let next = 0
    const worker = async () => {
      while (next < work.length) {
        if (ctx.signal.aborted) return
        const { postId, m } = work[next++]
        writes.push(await analyzeOne(postId, m, ctx))
      }
    }
    await Promise.all(Array.from({ length: Math.min(FETCH_CONCURRENCY, work.length) }, worker))
    await ctx.commit(ids, this.index, () => {
      for (const w of writes) writeMediaAnalysis(ctx.db, w)
    })
  },
}

async function analyzeOne(postId: number, m: PipelineMedia, ctx: RunContext): Promise<MediaAnalysisWrite> {
  const base: MediaAnalysisWrite = {
    id: m.id, cachePath: m.cachePath, thumbPath: m.thumbPath, ocrText: m.ocrText, visualTags: m.visualTags,
    description: m.description, fetchedAt: ctx.now(), fetchError: null,
  }
  const tagsWithoutImage = () => ctx.images.visualTags({ image: null, width: m.width, height: m.height, ocrText: null, altText: m.altText, mediaType: m.type })
  if (!ctx.mediaCache) return { ...base, visualTags: await tagsWithoutImage() }
  // Videos and GIFs are analysed through their poster image.
  const url = m.type === 'photo' ? m.url : m.thumbnailUrl || m.url
  let image: { file: string; mime: string; data: Buffer }
  try {
    image = await ctx.mediaCache.fetch(url, ctx.signal)
  } catch (e) {
    const message = `image ${m.id}: ${(e as Error).message}`
    if (!ctx.signal.aborted) ctx.recordError(postId, 'vision_analysis', message)
    return { ...base, fetchError: (e as Error).message.slice(0, 500), visualTags: await tagsWithoutImage() }
  }
  const out: MediaAnalysisWrite = { ...base, cachePath: image.file }
  try {
    out.thumbPath = await ctx.mediaCache.saveThumbnail(image.file, await ctx.images.thumbnail(image.data))
  } catch (e) {
    ctx.recordError(postId, 'vision_analysis', `image ${m.id}: thumbnail failed (${(e as Error).message})`)
  }
  try {
    out.ocrText = (await ctx.images.ocr(image.data)).trim() || null
  } catch (e) {
    ctx.recordError(postId, 'vision_analysis', `image ${m.id}: OCR failed (${(e as Error).message})`)
  }
  out.visualTags = await ctx.images.visualTags({ image: image.data, width: m.width, height: m.height, ocrText: out.ocrText, altText: m.altText, mediaType: m.type })
  if (ctx.provider.vision && ctx.provider.describeImage) {
    try {
      const d = await ctx.provider.describeImage({ mime: image.mime, data: image.data, altText: m.altText }, ctx.signal)
      ctx.addUsage(d.usage)
      out.description = d.description || null
    } catch (e) {
      if (!ctx.signal.aborted) ctx.recordError(postId, 'vision_analysis', `image ${m.id}: ${ctx.provider.name} could not describe it (${(e as Error).message}); OCR and visual tags kept`, true)
    }
  }
  return out
}
