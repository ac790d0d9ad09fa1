import { parentPort } from 'node:worker_threads'
import { loadLanguageDetector } from '../language/index.ts'

// Worker-thread entry of the background language check (language-upgrade.ts): detects the language of
// the texts it is sent. The detector (eld) and the garbage of its n-gram counting live on this thread,
// whose memory goes back to the system when the check is done and the worker is stopped.

export type LanguageRequest = { seq: number; texts: string[] }
export type LanguageReply = { seq: number; langs: (string | null)[] } | { seq: number; error: string }

const port = parentPort!
const detector = loadLanguageDetector()

port.on('message', (m: LanguageRequest) => {
  detector.then(
    (detect) => port.postMessage({ seq: m.seq, langs: m.texts.map(detect) } satisfies LanguageReply),
    (e: unknown) => port.postMessage({ seq: m.seq, error: e instanceof Error ? e.message : String(e) } satisfies LanguageReply),
  )
})
