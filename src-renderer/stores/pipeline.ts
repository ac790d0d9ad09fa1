import { create } from 'zustand'
import { PIPELINE_STAGES, zPipelineEvent, type PipelineJob, type PipelineStage } from '../../src-shared/schemas/pipeline.ts'
import * as api from '../api/pipeline.ts'
import { toast } from './toast.ts'

export interface StageProgress {
  current: number
  total: number
  progress: number
  startedAt: number | null
  updatedAt: number | null
  done: boolean
}

const blankStages = (): Record<PipelineStage, StageProgress> =>
  Object.fromEntries(PIPELINE_STAGES.map((s) => [s, { current: 0, total: 0, progress: 0, startedAt: null, updatedAt: null, done: false }])) as Record<PipelineStage, StageProgress>

/** A stage's own percentage: its posts done out of its posts (the stream's `progress` is the whole job's). */
export const stagePercent = (current: number, total: number): number => (total > 0 ? Math.min(100, (current / total) * 100) : 0)

/**
 * Every stage's figures as a stored job says them: the stages before its stage finished all its posts,
 * its stage is at `current`, later ones have not begun; a completed job finished every stage.
 */
export function stagesFromJob(job: PipelineJob): Record<PipelineStage, StageProgress> {
  const at = job.status === 'completed' || job.stage === 'complete' ? PIPELINE_STAGES.length : PIPELINE_STAGES.indexOf(job.stage)
  const total = job.totalBookmarks
  return Object.fromEntries(PIPELINE_STAGES.map((k, i) => {
    const current = i < at ? total : i === at ? Math.min(job.current, total) : 0
    return [k, { current, total, progress: i < at ? 100 : stagePercent(current, total), startedAt: null, updatedAt: null, done: i < at }]
  })) as Record<PipelineStage, StageProgress>
}

interface PipelineState {
  job: PipelineJob | null
  status: 'idle' | 'loading' | 'ready' | 'error' | 'unavailable'
  running: boolean
  stage: PipelineStage | 'complete' | null
  stages: Record<PipelineStage, StageProgress>
  result: { processed: number; errors: number } | null
  connected: boolean
  error: string | null
  load: () => Promise<void>
  start: (opts?: { force?: boolean; bookmarkIds?: number[] }) => Promise<void>
  cancel: () => Promise<void>
  connect: () => void
  disconnect: () => void
}

let source: EventSource | null = null
const listeners = new Set<() => void>()
/** Called when a run completes: stores that show counts (library, stats, categories) refresh once. */
export const onPipelineComplete = (fn: () => void) => {
  listeners.add(fn)
  return () => listeners.delete(fn)
}

export const usePipelineStore = create<PipelineState>((set, get) => ({
  job: null,
  status: 'idle',
  running: false,
  stage: null,
  stages: blankStages(),
  result: null,
  connected: false,
  error: null,
  async load() {
    if (get().status === 'loading') return
    set({ status: 'loading' })
    try {
      const { job, next } = await api.fetchPipelineState()
      // A run about to start after this one (queued, or for posts imported meanwhile) counts as running.
      const running = (!!job && (job.status === 'running' || job.status === 'cancelling')) || next > 0
      // Live figures (with their rates) are kept while the stream feeds them; otherwise the job's own.
      const live = running && get().running && source !== null
      set({ job, status: 'ready', running, error: null, ...(live || !job ? {} : { stages: stagesFromJob(job), stage: running ? job.stage : 'complete' }) })
      if (running) get().connect()
    } catch (e) {
      const status = (e as { status?: number }).status
      set({ status: status === 404 ? 'unavailable' : 'error', error: (e as Error).message })
    }
  },
  async start(opts = {}) {
    set({ error: null, result: null, stages: blankStages(), stage: null })
    const r = await api.startPipeline(opts)
    set({ running: true })
    if (r.status === 'running') toast('The pipeline is already running; showing its progress.', 'info')
    // A forced run asked for during another run waits for it, and says so (the server's words).
    if (r.status === 'queued') toast(r.message ?? 'Your run will start as soon as the current one finishes.', 'info')
    get().connect()
  },
  async cancel() {
    await api.cancelPipeline()
    toast('Cancelling: the current post finishes first.', 'info')
  },
  connect() {
    if (source) return
    const es = new EventSource(api.PIPELINE_STREAM_URL, { withCredentials: true })
    source = es
    es.onopen = () => set({ connected: true })
    es.onmessage = (m) => {
      let data: unknown
      try {
        data = JSON.parse(m.data)
      } catch {
        return
      }
      const parsed = zPipelineEvent.safeParse(data)
      if (!parsed.success) return
      const ev = parsed.data
      const now = Date.now()
      if (ev.stage === 'complete') {
        // The stored job says how far each stage got (a cancelled run stops mid-way); load() reads it,
        // and reconnects when a queued run has started meanwhile.
        set({ running: false, stage: 'complete', result: { processed: ev.processed, errors: ev.errors } })
        get().disconnect()
        void get().load()
        for (const l of listeners) l()
        return
      }
      set((s) => {
        const prev = s.stages[ev.stage]
        const idx = PIPELINE_STAGES.indexOf(ev.stage)
        const stages = { ...s.stages }
        for (let i = 0; i < idx; i++) {
          const k = PIPELINE_STAGES[i]
          // a stage that finished before this page connected: every stage reads the same posts
          const total = stages[k].total || ev.total
          if (!stages[k].done) stages[k] = { ...stages[k], done: true, progress: 100, current: total, total }
        }
        for (let i = idx + 1; i < PIPELINE_STAGES.length; i++) {
          const k = PIPELINE_STAGES[i]
          stages[k] = { current: 0, total: ev.total, progress: 0, startedAt: null, updatedAt: null, done: false }
        }
        stages[ev.stage] = {
          current: ev.current,
          total: ev.total,
          progress: stagePercent(ev.current, ev.total),
          startedAt: prev.startedAt ?? now,
          updatedAt: now,
          done: ev.current >= ev.total && ev.total > 0,
        }
        return { stage: ev.stage, stages, running: true }
      })
    }
    es.onerror = () => {
      set({ connected: false })
      // Closed by the server after the last event, or the session ended: do not hammer it with reconnects.
      if (!get().running || es.readyState === EventSource.CLOSED) get().disconnect()
    }
  },
  disconnect() {
    source?.close()
    source = null
    set({ connected: false })
  },
}))

/** Posts per second and seconds left for a stage, from when it started until its last event. */
export function stageRate(p: StageProgress): { perSecond: number | null; secondsLeft: number | null } {
  if (!p.startedAt || !p.updatedAt || p.current <= 0) return { perSecond: null, secondsLeft: null }
  const elapsed = (p.updatedAt - p.startedAt) / 1000
  if (elapsed < 0.5) return { perSecond: null, secondsLeft: null }
  const perSecond = p.current / elapsed
  return { perSecond, secondsLeft: perSecond > 0 ? Math.max(0, (p.total - p.current) / perSecond) : null }
}
