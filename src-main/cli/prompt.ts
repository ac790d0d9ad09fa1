import { createInterface } from 'node:readline'
import { Writable } from 'node:stream'

/** Reads all of stdin (for --password-stdin), without the trailing newline. */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '')
}

/** Asks for a secret on a terminal without echoing it: readline writes its echo to a stream that drops it. */
export function promptHidden(question: string): Promise<string> {
  return new Promise((resolve) => {
    const silent = new Writable({ write: (_chunk, _encoding, done) => done() })
    const rl = createInterface({ input: process.stdin, output: silent, terminal: true })
    process.stderr.write(question)
    rl.question('', (answer) => {
      rl.close()
      process.stderr.write('\n')
      resolve(answer)
    })
  })
}

export async function readPassword(fromStdin: boolean): Promise<string> {
  if (fromStdin) return readStdin()
  if (!process.stdin.isTTY) throw new Error('no terminal to ask for a password on; pipe it in with --password-stdin')
  const first = await promptHidden('Password: ')
  const again = await promptHidden('Repeat password: ')
  if (first !== again) throw new Error('the two passwords differ; nothing was changed')
  return first
}
