import { parentPort, workerData } from 'node:worker_threads'
import { encoderOverPort } from '../local/encoder-port.ts'
import { useSentenceEncoder } from '../local/sentence-encoder.ts'
import { serveEngine } from './engine-port.ts'
import type { WorkerStart } from './local-runner.ts'
import { serveModel } from './model-thread.ts'

// Worker-thread entry, in one of two roles: the process's model thread (encoder-host.ts), or a
// runner's worker of its own (local-runner.ts) that encodes through the model thread's port. The
// model thread and background runners' workers are started at a lower priority (startNicedWorker).
const start = workerData as WorkerStart
if ('model' in start) serveModel()
else {
  useSentenceEncoder(encoderOverPort(start.encoderPort))
  serveEngine(parentPort!, start.config)
}
