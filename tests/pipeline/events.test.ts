import { describe, expect, it } from 'vitest'
import type { PipelineEvent } from '../../src-shared/schemas/pipeline.ts'
import { createEventHub, holdingComplete, watchHub } from '../../src-main/pipeline/events.ts'

const stage = (progress: number): PipelineEvent => ({ stage: 'entity_extraction', progress, current: progress, total: 100 })
const complete: PipelineEvent = { stage: 'complete', progress: 100, processed: 3, errors: 1 }

describe('event hub', () => {
  it('fans events out to subscribers until they stop, and remembers the latest for late joiners', () => {
    const hub = createEventHub()
    const seen: PipelineEvent[] = []
    const stop = hub.subscribe((ev) => seen.push(ev))
    hub.publish(stage(10))
    stop()
    hub.publish(stage(20))
    expect(seen).toEqual([stage(10)])
    expect(hub.latest()).toEqual(stage(20))
  })

  it('holds a job’s complete back while a run is to follow, and lets stage events through', () => {
    const hub = createEventHub()
    let holding = true
    const jobHub = holdingComplete(hub, () => holding)
    const seen: PipelineEvent[] = []
    hub.subscribe((ev) => seen.push(ev))
    jobHub.publish(stage(50))
    jobHub.publish(complete)
    expect(seen).toEqual([stage(50)])
    holding = false
    jobHub.publish(complete)
    expect(seen).toEqual([stage(50), complete])
  })

  it('watches a running job live from its latest state, and a finished one from the last job’s counts', () => {
    const hub = createEventHub()
    const seen: PipelineEvent[] = []
    const starting = watchHub(hub, { total: 7 }, () => null, (ev) => seen.push(ev))
    expect(starting.initial).toEqual({ stage: 'entity_extraction', progress: 0, current: 0, total: 7 })
    expect(starting.live).toBe(true)
    hub.publish(stage(30))
    starting.stop()
    hub.publish(stage(40))
    expect(seen).toEqual([stage(30)])
    expect(watchHub(hub, { total: 7 }, () => null, () => {}).initial).toEqual(stage(40))

    const idle = watchHub(hub, null, () => ({ processed: 3, errors: 1 }), () => seen.push(complete))
    expect(idle).toMatchObject({ initial: complete, live: false })
    expect(watchHub(hub, null, () => null, () => {}).initial).toEqual({ stage: 'complete', progress: 100, processed: 0, errors: 0 })
  })
})
