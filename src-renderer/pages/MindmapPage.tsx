import { useCallback, useEffect, useEffectEvent, useMemo, useRef, useState, type PointerEvent as RPointerEvent } from 'react'
import type { Mindmap, MindmapNode } from '../../src-shared/schemas/mindmap.ts'
import { fetchMindmap } from '../api/mindmap.ts'
import { EmptyState, ErrorState, Loading, PageHeader } from '../components/Feedback.tsx'
import { Icon } from '../components/Icon.tsx'
import { fmtNumber } from '../lib/format.ts'
import { layoutCategories, layoutChildren, type Placed } from '../lib/radial.ts'
import { isTyping } from '../lib/shortcuts.ts'
import { navigate } from '../stores/router.ts'

const PER = 24
const shortLabel = (s: string) => (s.length > 26 ? `${s.slice(0, 25).trimEnd()}…` : s)

interface Expanded { nodes: MindmapNode[]; page: number; pages: number; loading: boolean }

export function MindmapPage() {
  const [map, setMap] = useState<Mindmap | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [expanded, setExpanded] = useState<Record<string, Expanded>>({})
  const [view, setView] = useState({ x: 0, y: 0, k: 1 })
  const [hover, setHover] = useState<string | null>(null)
  const [size, setSize] = useState({ w: 800, h: 600 })
  const svgRef = useRef<SVGSVGElement>(null)
  const drag = useRef<{ x: number; y: number; vx: number; vy: number; moved: boolean } | null>(null)

  const load = useCallback(() => {
    setError(null)
    // The overview needs only the categories: one post each, no tags; posts load per category on demand.
    fetchMindmap({ perCategory: 1, tags: false }).then(setMap, (e) => setError(e.message))
  }, [])
  useEffect(load, [load])

  const cats = useMemo(() => (map?.nodes ?? []).filter((n) => n.type === 'category'), [map])
  const layout = useMemo(() => layoutCategories(cats.map((c) => ({ id: c.id, count: c.count ?? 0 }))), [cats])
  const byId = useMemo(() => new Map(layout.placed.map((p) => [p.id, p])), [layout])
  const children = useMemo(() => {
    const out: { parent: Placed; node: MindmapNode; at: Placed }[] = []
    for (const [catId, ex] of Object.entries(expanded)) {
      const parent = byId.get(catId)
      if (!parent) continue
      const placed = layoutChildren(parent, ex.nodes.map((n) => n.id))
      ex.nodes.forEach((n, i) => out.push({ parent, node: n, at: placed[i] }))
    }
    return out
  }, [expanded, byId])

  /** Zoom and pan so that every node and its label is on the canvas (expanded posts included). */
  const fit = () => {
    const svg = svgRef.current
    if (!svg) return
    const w = svg.clientWidth
    const h = svg.clientHeight
    // Each node with the far end of its label: categories' labels run sideways, posts' along their ray.
    const boxes: Array<[number, number]> = [[-40, -40], [40, 40]]
    for (const p of layout.placed) {
      const c = cats.find((x) => x.id === p.id)
      const len = (c?.label.length ?? 10) * 7.5 + 50
      const outward = Math.cos(p.angle) >= 0
      boxes.push([p.x + (outward ? p.r + 8 + len : -p.r), p.y - p.r - 4], [p.x + (outward ? p.r : -p.r - 8 - len), p.y + p.r + 4])
    }
    for (const { at, node } of children) {
      const reach = at.r + 5 + shortLabel(node.label).length * 6.2
      boxes.push([at.x - at.r, at.y - at.r], [at.x + at.r, at.y + at.r], [at.x + Math.cos(at.angle) * reach, at.y + Math.sin(at.angle) * reach])
    }
    const minX = Math.min(...boxes.map((b) => b[0])) - 16
    const maxX = Math.max(...boxes.map((b) => b[0])) + 16
    const minY = Math.min(...boxes.map((b) => b[1])) - 16
    const maxY = Math.max(...boxes.map((b) => b[1])) + 16
    const k = Math.max(0.15, Math.min(1.4, w / (maxX - minX), h / (maxY - minY)))
    setView({ x: (-(minX + maxX) / 2) * k, y: (-(minY + maxY) / 2) * k, k })
  }
  // Effects fit when the map or its loaded posts change, not on every change of what fit reads.
  const refit = useEffectEvent(fit)
  useEffect(() => { if (map) refit() }, [map])
  // A category's posts fan out beyond the circle: fit again once they have loaded, so none runs off the canvas.
  const loadedKey = Object.entries(expanded).filter(([, e]) => !e.loading).map(([k, e]) => `${k}:${e.nodes.length}`).join()
  useEffect(() => { if (map && loadedKey) refit() }, [map, loadedKey])
  useEffect(() => {
    const svg = svgRef.current
    if (!svg) return
    const ro = new ResizeObserver(() => setSize({ w: svg.clientWidth, h: svg.clientHeight }))
    ro.observe(svg)
    return () => ro.disconnect()
  }, [map])

  const toggle = async (cat: MindmapNode, page = 1) => {
    if (expanded[cat.id] && page === 1) {
      const next = { ...expanded }
      delete next[cat.id]
      setExpanded(next)
      return
    }
    setExpanded((e) => ({ ...e, [cat.id]: { nodes: e[cat.id]?.nodes ?? [], page, pages: e[cat.id]?.pages ?? 1, loading: true } }))
    try {
      const r = await fetchMindmap({ category: cat.slug, perCategory: PER, page, tags: false })
      const posts = r.nodes.filter((n) => n.type === 'bookmark')
      setExpanded((e) => ({ ...e, [cat.id]: { nodes: posts, page: r.page ?? 1, pages: r.pages ?? 1, loading: false } }))
    } catch (err) {
      setError((err as Error).message)
    }
  }

  const zoomBy = (f: number, cx = 0, cy = 0) => setView((v) => {
    const k = Math.min(4, Math.max(0.15, v.k * f))
    // Keep the point under the cursor still while zooming.
    return { k, x: cx - ((cx - v.x) * k) / v.k, y: cy - ((cy - v.y) * k) / v.k }
  })

  useEffect(() => {
    const svg = svgRef.current
    if (!svg) return
    const onWheel = (e: WheelEvent) => {
      e.preventDefault()
      const rect = svg.getBoundingClientRect()
      zoomBy(e.deltaY < 0 ? 1.12 : 1 / 1.12, e.clientX - rect.left - rect.width / 2, e.clientY - rect.top - rect.height / 2)
    }
    svg.addEventListener('wheel', onWheel, { passive: false })
    return () => svg.removeEventListener('wheel', onWheel)
  }, [map])

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e) || document.querySelector('dialog[open]')) return
      if (e.key === '+' || e.key === '=') zoomBy(1.2)
      else if (e.key === '-') zoomBy(1 / 1.2)
      else if (e.key === '0') refit()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  const down = (e: RPointerEvent) => {
    if ((e.target as Element).closest('[data-node]')) return
    drag.current = { x: e.clientX, y: e.clientY, vx: view.x, vy: view.y, moved: false }
    svgRef.current?.setPointerCapture(e.pointerId)
  }
  const move = (e: RPointerEvent) => {
    const d = drag.current
    if (!d) return
    d.moved = true
    setView((v) => ({ ...v, x: d.vx + e.clientX - d.x, y: d.vy + e.clientY - d.y }))
  }
  const up = () => { drag.current = null }

  if (error && !map) return <ErrorState message={error} onRetry={load} />
  if (!map) return <Loading label="Drawing the map…" />
  const root = map.nodes.find((n) => n.type === 'root')
  // The starting categories exist before any post does: a map of empty circles is not a map.
  if (!cats.length || !root?.count) {
    return (
      <>
        <PageHeader title="Mind map" />
        <EmptyState icon="graph" title="Nothing to map yet">Import posts and run the pipeline; categories and their posts appear here.</EmptyState>
      </>
    )
  }

  return (
    <div className="mindmap-page">
      <PageHeader title="Mind map" subtitle={`${fmtNumber(root?.count ?? 0)} posts in ${cats.length} groups. Select a category to expand it; select a post to open it.`}
        actions={
          <div className="zoom-tools" role="group" aria-label="Zoom">
            <button type="button" className="icon-btn" onClick={() => zoomBy(1 / 1.25)} aria-label="Zoom out"><Icon name="zoomOut" /></button>
            <span className="zoom-level" aria-live="polite">{Math.round(view.k * 100)}%</span>
            <button type="button" className="icon-btn" onClick={() => zoomBy(1.25)} aria-label="Zoom in"><Icon name="zoomIn" /></button>
            <button type="button" className="icon-btn" onClick={fit} aria-label="Fit to screen"><Icon name="crosshair" /></button>
          </div>
        } />
      <div className="mindmap-wrap">
        <svg ref={svgRef} className="mindmap" role="group" aria-label="Mind map of categories and posts"
          onPointerDown={down} onPointerMove={move} onPointerUp={up} onPointerCancel={up}>
          <g transform={`translate(${size.w / 2 + view.x} ${size.h / 2 + view.y}) scale(${view.k})`} className="mm-world">
            {layout.placed.map((p) => <line key={`e${p.id}`} x1={0} y1={0} x2={p.x} y2={p.y} className="mm-edge" />)}
            {children.map(({ parent, at, node }) => <line key={`e${node.id}${parent.id}`} x1={parent.x} y1={parent.y} x2={at.x} y2={at.y} className="mm-edge mm-edge-post" />)}
            <g className="mm-root">
              <circle r={34} />
              <text y={-2} textAnchor="middle" className="mm-root-label">Library</text>
              <text y={14} textAnchor="middle" className="mm-root-count">{fmtNumber(root?.count ?? 0)}</text>
            </g>
            {cats.map((c) => {
              const p = byId.get(c.id)!
              const open = !!expanded[c.id]
              return (
                <g key={c.id} data-node transform={`translate(${p.x} ${p.y})`} className={`mm-cat${open ? ' is-open' : ''}`}
                  role="button" tabIndex={0} aria-expanded={open} aria-label={`${c.label} · ${fmtNumber(c.count ?? 0)} posts`}
                  onClick={() => void toggle(c)} onKeyDown={(e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); void toggle(c) } }}>
                  <circle r={p.r} style={{ fill: c.color ?? 'var(--muted-bg)' }} />
                  {expanded[c.id]?.loading && <circle r={p.r + 6} className="mm-loading" />}
                </g>
              )
            })}
            {children.map(({ node, at, parent }) => (
              <g key={`${parent.id}-${node.id}`} data-node transform={`translate(${at.x} ${at.y})`} className="mm-post" role="link" tabIndex={0}
                aria-label={`Post: ${node.label}`} onMouseEnter={() => setHover(node.id)} onMouseLeave={() => setHover(null)} onFocus={() => setHover(node.id)} onBlur={() => setHover(null)}
                onClick={() => node.bookmarkId && navigate(`/post/${node.bookmarkId}`)}
                onKeyDown={(e) => { if (e.key === 'Enter' && node.bookmarkId) navigate(`/post/${node.bookmarkId}`) }}>
                <circle r={at.r} />
              </g>
            ))}
            {/* Labels last, above every node: a label is never hidden behind another category's circle. */}
            <g className="mm-labels" aria-hidden="true">
              {cats.map((c) => {
                const p = byId.get(c.id)!
                const outward = Math.cos(p.angle) >= 0
                // An open category's posts fan out around it: its label moves to the inner side, under the node.
                if (expanded[c.id]) {
                  return (
                    <text key={c.id} x={p.x - Math.cos(p.angle) * (p.r + 16)} y={p.y - Math.sin(p.angle) * (p.r + 16) + 4} textAnchor="middle" className="mm-cat-label">
                      {c.label} · <tspan className="mm-cat-count">{fmtNumber(c.count ?? 0)}</tspan>
                    </text>
                  )
                }
                return (
                  <text key={c.id} x={p.x + (outward ? p.r + 8 : -p.r - 8)} y={p.y + 4} textAnchor={outward ? 'start' : 'end'} className="mm-cat-label">
                    {c.label} · <tspan className="mm-cat-count">{fmtNumber(c.count ?? 0)}</tspan>
                  </text>
                )
              })}
              {children.map(({ node, at, parent }) => {
                // Along the ray from the category, flipped on the left so it never reads upside down.
                const deg = (at.angle * 180) / Math.PI
                const left = Math.cos(at.angle) < 0
                return (
                  <text key={`l-${parent.id}-${node.id}`} className="mm-post-label" textAnchor={left ? 'end' : 'start'}
                    transform={`translate(${at.x} ${at.y}) rotate(${left ? deg + 180 : deg})`} x={left ? -(at.r + 5) : at.r + 5} y={3.5}>
                    {shortLabel(node.label)}
                  </text>
                )
              })}
              {children.filter(({ node }) => hover === node.id).map(({ node, at }) => (
                <g key={`tip-${node.id}`} className="mm-tip" transform={`translate(${at.x} ${at.y})`}>
                  <rect x={12} y={-14} width={Math.min(320, node.label.length * 6.4 + 16)} height={26} rx={6} />
                  <text x={20} y={4}>{node.label.length > 48 ? `${node.label.slice(0, 47)}…` : node.label}</text>
                </g>
              ))}
            </g>
          </g>
        </svg>
        {Object.entries(expanded).some(([, e]) => e.pages > 1) && (
          <div className="mm-more">
            {Object.entries(expanded).filter(([, e]) => e.pages > 1).map(([id, e]) => {
              const c = cats.find((x) => x.id === id)!
              return (
                <div key={id} className="mm-pager">
                  <span>{c.label}: page {e.page} of {e.pages}</span>
                  <button type="button" className="btn btn-small" disabled={e.page <= 1} onClick={() => void toggle(c, e.page - 1)}>Newer</button>
                  <button type="button" className="btn btn-small" disabled={e.page >= e.pages} onClick={() => void toggle(c, e.page + 1)}>Older</button>
                </div>
              )
            })}
          </div>
        )}
      </div>
    </div>
  )
}
