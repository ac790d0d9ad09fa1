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

/**
 * What jobs publish through: a job's `complete` is held back while `holding()` (a queued run, or the run
 * for posts imported meanwhile, is about to follow), so a watching stream goes straight on with that
 * run's stages and ends only when nothing is left.
 */
export function holdingComplete(hub: EventHub, holding: () => boolean): EventHub {
  return {
    ...hub,
    publish: (ev) => {
      if (ev.stage === 'complete' && holding()) return
      hub.publish(ev)
    },
  }
}

export interface Watch { initial: PipelineEvent; live: boolean; stop(): void }

/**
 * Current state first, then live events until `complete`: `running` is the running job's total when a
 * job runs or one is being handed over to; otherwise `last` gives the finished state.
 */
export function watchHub(hub: EventHub, running: { total: number } | null, last: () => { processed: number; errors: number } | null, onEvent: Listener): Watch {
  if (running) {
    const initial = hub.latest() ?? { stage: 'entity_extraction' as const, progress: 0, current: 0, total: running.total }
    const stop = hub.subscribe(onEvent)
    return { initial, live: initial.stage !== 'complete', stop }
  }
  const j = last()
  return { initial: { stage: 'complete', progress: 100, processed: j?.processed ?? 0, errors: j?.errors ?? 0 }, live: false, stop: () => {} }
}
