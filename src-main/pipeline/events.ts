import type { PipelineEvent } from '../../src-shared/schemas/pipeline.ts'

export type Listener = (ev: PipelineEvent) => void

/** Fans a running job's events out to stream clients and remembers the latest one for late joiners. */
export function createEventHub() {
  const listeners = new Set<Listener>()
  let latest: PipelineEvent | null = null
  return {
    publish(ev: PipelineEvent) {
      latest = ev
      for (const l of listeners) l(ev)
    },
    latest: () => latest,
    subscribe(l: Listener): () => void {
      listeners.add(l)
      return () => listeners.delete(l)
    },
  }
}
export type EventHub = ReturnType<typeof createEventHub>

export const overallProgress = (stageIndex: number, current: number, total: number): number =>
  Math.round(((stageIndex - 1 + (total > 0 ? current / total : 1)) / 4) * 1000) / 10
