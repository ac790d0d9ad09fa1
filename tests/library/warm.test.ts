import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startWarming } from '../../src-main/library/warm.ts'
import { closeDatabase, openDatabase, type Db } from '../../src-main/store/index.ts'
import { sqliteOf } from '../../src-main/store/db.ts'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const TICK = 25
/** Waits (up to 5 s, so a loaded machine does not fail it) until `ok()` holds. */
async function until(ok: () => boolean): Promise<void> {
  for (const end = Date.now() + 5000; !ok() && Date.now() < end;) await sleep(TICK)
}

describe('warming the dashboard after the library changes', () => {
  let dir: string
  let db: Db
  afterEach(() => {
    closeDatabase(db)
    rmSync(dir, { recursive: true, force: true })
  })
  const open = () => {
    dir = mkdtempSync(join(tmpdir(), 'sheaf-warm-'))
    db = openDatabase({ file: join(dir, 'sheaf.db') })
  }
  const addCategory = (slug: string) =>
    sqliteOf(db).prepare("INSERT INTO categories (name, slug, color, description) VALUES (?, ?, '#336699', '')").run(slug, slug)

  it('runs once the library holds still, once per change, and never inside an open write', async () => {
    open()
    let runs = 0
    const warmer = startWarming({ db, tasks: [() => runs++], everyMs: TICK })
    await until(() => runs > 0)
    expect(runs).toBe(1) // the library as opened

    for (let i = 0; i < 6; i++) {
      addCategory(`busy-${i}`)
      await sleep(TICK * 0.6)
    }
    const duringBurst = runs
    await until(() => runs > duringBurst)
    expect(runs).toBe(duringBurst + 1)
    await sleep(TICK * 4)
    expect(runs).toBe(duringBurst + 1) // nothing changed: nothing recomputed

    sqliteOf(db).exec('BEGIN IMMEDIATE')
    addCategory('pending')
    await sleep(TICK * 5)
    expect(runs).toBe(duringBurst + 1)
    sqliteOf(db).exec('COMMIT')
    await until(() => runs > duringBurst + 1)
    expect(runs).toBe(duringBurst + 2)

    warmer.stop()
    addCategory('after-stop')
    await sleep(TICK * 5)
    expect(runs).toBe(duringBurst + 2)
  })
})
