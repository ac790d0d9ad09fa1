import type { Bookmark, MemberState } from '../../src-shared/schemas/bookmarks.ts'
import type { StateBody } from '../../src-shared/schemas/member.ts'
import { setState, setStates } from '../api/member.ts'
import { useLibraryStore } from './library.ts'
import { toast } from './toast.ts'

export const CLEAR_STATE: MemberState = { read: false, starred: false, hidden: false }

/** Changes the signed-in person's own flags on a post and shows them where the library has it cached. */
export async function changeState(id: number, change: StateBody): Promise<MemberState | null> {
  try {
    const r = await setState(id, change)
    useLibraryStore.getState().patchState(id, r.state)
    return r.state
  } catch (e) {
    toast((e as Error).message, 'error')
    return null
  }
}

/** Flips one flag of a listed post. */
export function toggleFlag(b: Bookmark, flag: keyof MemberState): Promise<MemberState | null> {
  return changeState(b.id, { [flag]: !(b.state ?? CLEAR_STATE)[flag] })
}

/** The same change on a selection; the list reloads, as a filtered view may change. */
export async function changeStates(ids: number[], change: StateBody): Promise<number | null> {
  try {
    const r = await setStates(ids, change)
    useLibraryStore.getState().reload()
    return r.affected
  } catch (e) {
    toast((e as Error).message, 'error')
    return null
  }
}
