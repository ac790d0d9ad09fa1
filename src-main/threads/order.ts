/** One edge of a thread: `id` replies to `parentId`, both by the same author and in the library. */
export interface Edge {
  id: number
  parentId: number
  postId: string
  postCreatedAt: number
  parentPostId: string
}

export interface Place { id: number; rootId: number; position: number; size: number }

interface Node { id: number; postId: string; at: number }

/** Post ids are decimal strings too long for a number: a shorter one is smaller. */
const byTime = (a: Node, b: Node): number =>
  a.at - b.at || a.postId.length - b.postId.length || (a.postId < b.postId ? -1 : a.postId > b.postId ? 1 : 0)

/**
 * Threads from self-reply edges. Each root (a part whose parent is not in the library) starts a
 * thread; its parts are read depth first, a part's replies in the order they were posted, so a
 * branch (the author answering one of their posts twice) is read to its end before the next. A
 * thread has at least two parts; parts never reached from a root (a reply cycle, which X cannot
 * produce) are left out.
 */
export function orderThreads(edges: readonly Edge[]): Place[] {
  const nodes = new Map<number, Node>()
  const children = new Map<number, Node[]>()
  const hasParent = new Set<number>()
  for (const e of edges) {
    const child = { id: e.id, postId: e.postId, at: e.postCreatedAt }
    // a parent's time only orders it among its siblings, where it is a child itself; a root has none
    if (!nodes.has(e.parentId)) nodes.set(e.parentId, { id: e.parentId, postId: e.parentPostId, at: 0 })
    nodes.set(e.id, child)
    hasParent.add(e.id)
    const list = children.get(e.parentId)
    if (list) list.push(child)
    else children.set(e.parentId, [child])
  }
  for (const list of children.values()) list.sort(byTime)
  const places: Place[] = []
  for (const root of nodes.values()) {
    if (hasParent.has(root.id)) continue
    const order = readingOrder(root, children)
    order.forEach((id, i) => places.push({ id, rootId: root.id, position: i + 1, size: order.length }))
  }
  return places
}

function readingOrder(root: Node, children: ReadonlyMap<number, Node[]>): number[] {
  const order: number[] = []
  const stack = [root]
  while (stack.length > 0) {
    const n = stack.pop()!
    order.push(n.id)
    const kids = children.get(n.id)
    if (kids) for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i])
  }
  return order
}
