import { mkdirSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { clearSpool } from '../../src-main/http/index.ts'

describe('clearSpool', () => {
  it('removes what a crash left (untouched for an hour) and keeps what another process is writing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sheaf-spool-'))
    writeFileSync(join(dir, 'upload-old'), 'x')
    mkdirSync(join(dir, 'upload-parse-old'))
    writeFileSync(join(dir, 'upload-fresh'), 'x')
    writeFileSync(join(dir, 'not-ours'), 'x')
    const hoursAgo = (Date.now() - 2 * 3_600_000) / 1000
    utimesSync(join(dir, 'upload-old'), hoursAgo, hoursAgo)
    utimesSync(join(dir, 'upload-parse-old'), hoursAgo, hoursAgo)
    clearSpool(dir)
    expect(readdirSync(dir).sort()).toEqual(['not-ours', 'upload-fresh'])
  })
})
