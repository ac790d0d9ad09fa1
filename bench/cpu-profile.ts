/**
 * Reading a V8 CPU profile (`--cpu-prof`) for the bench scripts that split one: the thread's file, each
 * sample's stack as distinct frame names, and the samples on the profile's own clock (ms since it began,
 * about when the process started; bench/load.ts prints where its phases fell on that clock).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

interface CallFrame { functionName: string; url: string; lineNumber: number }
interface ProfileNode { id: number; callFrame: CallFrame; children?: number[] }
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

export interface Sample {
  /** The sampled node (stackOf() names its frames). */
  id: number
  /** When it was taken, ms since the profile began. */
  at: number
  /** The time it stands for (until the next sample). */
  ms: number
}

export interface ReadProfile {
  file: string
  samples: Sample[]
  /** The sample's frames, innermost first, each named once ("fn src-main/x.ts:12"). */
  stackOf(id: number): string[]
  isIdle(id: number): boolean
}

/** A directory: the thread whose file name ends in .0.NNN.cpuprofile (the main thread). */
const mainThreadFile = (dir: string): string => {
  const f = readdirSync(dir).find((n) => /\.\d+\.0\.\d+\.cpuprofile$/.test(n))
  if (!f) throw new Error(`no main-thread profile (*.0.NNN.cpuprofile) in ${dir}`)
  return join(dir, f)
}

export const frameName = (f: CallFrame): string => {
  const src = f.url.replace(/^file:\/\//, '').replace(/^.*?\/(src-main|src-shared|node_modules)\//, '$1/')
  return `${f.functionName || '(anonymous)'} ${src ? `${src}:${f.lineNumber + 1}` : ''}`.trim()
}

export function readProfile(path: string): ReadProfile {
  const file = statSync(path).isDirectory() ? mainThreadFile(path) : path
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)

  const stacks = new Map<number, string[]>()
  const stackOf = (id: number): string[] => {
    let s = stacks.get(id)
    if (s) return s
    const names = new Set<string>()
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const f = byId.get(n)!.callFrame
      if (f.functionName !== '(root)') names.add(frameName(f))
    }
    s = [...names]
    stacks.set(id, s)
    return s
  }

  const samples: Sample[] = []
  let clock = 0
  for (let i = 0; i < profile.samples.length; i++) {
    samples.push({ id: profile.samples[i], at: clock, ms: (profile.timeDeltas[i + 1] ?? 0) / 1000 })
    clock += (profile.timeDeltas[i] ?? 0) / 1000
  }
  return { file, samples, stackOf, isIdle: (id) => byId.get(id)!.callFrame.functionName === '(idle)' }
}
