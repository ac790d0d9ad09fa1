import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'

export interface Rect {
  x: number
  y: number
  width: number
  height: number
}

export interface WindowState {
  x?: number
  y?: number
  width: number
  height: number
  maximized: boolean
}

export const DEFAULT_WINDOW_STATE: WindowState = { width: 1280, height: 840, maximized: false }
export const MIN_SIZE = { width: 720, height: 480 }
/** A window counts as visible when at least this much of its title bar area is on some display. */
const MIN_VISIBLE = { width: 120, height: 40 }

const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  return {
    width: Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)),
    height: Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)),
  }
}

/**
 * Keeps a remembered window usable on today's displays: never larger than the largest work area,
 * never smaller than the minimum, and placed only where its top strip is visible; otherwise the
 * position is dropped so the window opens centred.
 */
export function clampToDisplays(state: WindowState, workAreas: readonly Rect[]): WindowState {
  if (workAreas.length === 0) return { ...state }
  const biggest = workAreas.reduce((a, b) => (a.width * a.height >= b.width * b.height ? a : b))
  const width = Math.round(Math.min(Math.max(state.width, MIN_SIZE.width), biggest.width))
  const height = Math.round(Math.min(Math.max(state.height, MIN_SIZE.height), biggest.height))
  const out: WindowState = { width, height, maximized: state.maximized }
  if (num(state.x) && num(state.y)) {
    const strip = { x: state.x, y: state.y, width, height: MIN_VISIBLE.height }
    const visible = workAreas.some((area) => {
      const o = overlap(strip, area)
      return o.width >= Math.min(MIN_VISIBLE.width, width) && o.height >= MIN_VISIBLE.height
    })
    if (visible) {
      out.x = Math.round(state.x)
      out.y = Math.round(state.y)
    }
  }
  return out
}

/** The stored state, or the default when the file is missing or damaged. */
export function loadWindowState(file: string): WindowState {
  try {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as Partial<WindowState>
    if (!num(raw.width) || !num(raw.height)) return { ...DEFAULT_WINDOW_STATE }
    const state: WindowState = { width: raw.width, height: raw.height, maximized: raw.maximized === true }
    if (num(raw.x) && num(raw.y)) {
      state.x = raw.x
      state.y = raw.y
    }
    return state
  } catch {
    return { ...DEFAULT_WINDOW_STATE }
  }
}

/** Written to a temporary file and renamed, so a crash mid-write never leaves half a file. */
export function saveWindowState(file: string, state: WindowState): void {
  mkdirSync(dirname(file), { recursive: true })
  const tmp = `${file}.tmp`
  writeFileSync(tmp, JSON.stringify(state, null, 2))
  renameSync(tmp, file)
}

/** The part of BrowserWindow that state tracking needs (a stub in tests). */
export interface TrackedWindow {
  getNormalBounds(): Rect
  isMaximized(): boolean
  on(event: 'resize' | 'move' | 'close', listener: () => void): unknown
}

/** Saves size and position when the window moves or resizes (debounced) and when it closes. */
export function trackWindowState(win: TrackedWindow, save: (state: WindowState) => void, debounceMs = 500): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null
  const snapshot = (): WindowState => ({ ...win.getNormalBounds(), maximized: win.isMaximized() })
  const flush = () => {
    if (timer) clearTimeout(timer)
    timer = null
    save(snapshot())
  }
  const later = () => {
    if (timer) clearTimeout(timer)
    timer = setTimeout(flush, debounceMs)
  }
  win.on('resize', later)
  win.on('move', later)
  win.on('close', flush)
  return flush
}
