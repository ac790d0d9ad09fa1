import { analyzeUserMessage, ANALYZE_SYSTEM, parseAnalyzeReply } from '../prompts/analyze.ts'
import { addUsage, NO_USAGE, type AnalyzeContext, type AnalyzeInput, type AnalyzeResult, type Usage } from '../types.ts'
import { isAbort } from './remote-call.ts'

/** One model turn: the provider-specific wire call. `truncated` when the reply hit the output limit. */
export type Complete = (req: { system: string; user: string; posts: AnalyzeInput[]; signal?: AbortSignal }) => Promise<{ text: string; truncated: boolean; usage: Usage }>

/**
 * Analyses posts in batches through `complete`, `limit` bounding parallel calls. A batch whose reply is
 * truncated or not valid JSON is split in half and tried again, down to single posts; what still fails
 * is returned in `failures` (the pipeline falls back to the local models for those).
 */
export async function batchAnalyze(
  posts: AnalyzeInput[],
  ctx: AnalyzeContext,
  { complete, batchSize, limit }: { complete: Complete; batchSize: number; limit: <T>(fn: () => Promise<T>) => Promise<T> },
): Promise<AnalyzeResult> {
  const out: AnalyzeResult = { results: [], failures: [], usage: NO_USAGE }
  const run = async (batch: AnalyzeInput[]): Promise<void> => {
    let reply: Awaited<ReturnType<Complete>>
    try {
      reply = await limit(() => complete({ system: ANALYZE_SYSTEM, user: analyzeUserMessage(batch, ctx), posts: batch, signal: ctx.signal }))
    } catch (e) {
      if (isAbort(e) || ctx.signal?.aborted) throw e
      out.failures.push(...batch.map((p) => ({ id: p.id, message: (e as Error).message })))
      return
    }
    out.usage = addUsage(out.usage, reply.usage)
    let parsed: ReturnType<typeof parseAnalyzeReply> | null = null
    let why = reply.truncated ? 'the reply was cut off at the output limit' : ''
    if (!reply.truncated) {
      try {
        parsed = parseAnalyzeReply(reply.text, batch, ctx)
      } catch (e) {
        why = `the reply was not the expected JSON (${(e as Error).message.slice(0, 120)})`
      }
    }
    if (parsed) {
      out.results.push(...parsed.results)
      out.failures.push(...parsed.failures)
      return
    }
    if (batch.length > 1) {
      const half = Math.ceil(batch.length / 2)
      await Promise.all([run(batch.slice(0, half)), run(batch.slice(half))])
      return
    }
    out.failures.push({ id: batch[0].id, message: why })
  }
  const batches: AnalyzeInput[][] = []
  for (let i = 0; i < posts.length; i += batchSize) batches.push(posts.slice(i, i + batchSize))
  await Promise.all(batches.map(run))
  const order = new Map(posts.map((p, i) => [p.id, i]))
  out.results.sort((a, b) => order.get(a.id)! - order.get(b.id)!)
  return out
}
