import { parentPort, workerData } from 'node:worker_threads'
import { lowerThreadPriority } from '../../background/index.ts'
import { encoderOverPort } from '../local/encoder-port.ts'
import { useSentenceEncoder } from '../local/sentence-encoder.ts'
import { serveEngine } from './engine-port.ts'
import type { WorkerStart } from './local-runner.ts'
import { serveModel } from './model-thread.ts'

// Worker-thread entry, in one of two roles: the process's model thread (encoder-host.ts), or a
// runner's worker of its own (local-runner.ts) that encodes through the model thread's port.
const start = workerData as WorkerStart
if ('model' in start) {
  lowerThreadPriority()
  serveModel()
} else {
  if (start.background) lowerThreadPriority()
  useSentenceEncoder(encoderOverPort(start.encoderPort))
  serveEngine(parentPort!, start.config)
}
