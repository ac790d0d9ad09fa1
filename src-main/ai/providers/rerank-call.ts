import { parseRerankReply, RERANK_SYSTEM, rerankUserMessage } from '../prompts/rerank.ts'
import type { RerankInput, RerankResult, Usage } from '../types.ts'
import { RemoteError, type RetryOptions } from './remote-call.ts'

/**
 * Search waits for this call, so it gets one retry with a short backoff (withRetry's policy) instead of
 * the pipeline's patient four; search's own deadline (8 s) cancels it through `signal`.
 */
export const RERANK_RETRY: Omit<RetryOptions, 'signal'> = { attempts: 2, timeoutMs: 15_000, baseDelayMs: 250, maxDelayMs: 1_000 }

/** ~25 output tokens per judged candidate, plus room. */
const maxOutFor = (n: number) => 200 + n * 60

export type AskText = (system: string, user: string, maxOut: number, signal?: AbortSignal) => Promise<{ text: string; usage: Usage }>

export async function rerankVia(ask: AskText, query: string, candidates: RerankInput[], signal?: AbortSignal): Promise<RerankResult> {
  if (candidates.length === 0) return { items: [], usage: { tokensIn: 0, tokensOut: 0, costUsd: 0 } }
  const r = await ask(RERANK_SYSTEM, rerankUserMessage(query, candidates), maxOutFor(candidates.length), signal)
  try {
    return { items: parseRerankReply(r.text, candidates), usage: r.usage }
  } catch (e) {
    throw new RemoteError(`the rerank reply is unusable: ${e instanceof Error ? e.message.slice(0, 200) : String(e)}`)
  }
}
