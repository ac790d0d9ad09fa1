import type { EncoderPrecision } from './use-lite-onnx.ts'

/**
 * Which of the model's two precisions encodes what. Searches' questions in int8 (~0.3 ms less of the model's
 * thread a search served, answers' first result the same for ~98% of questions: docs/load.md, stops 32-33),
 * posts in fp32, so stored vectors are as they were. SHEAF_ENCODER_INT8=off gives questions fp32 too (benches
 * compare); `all` encodes posts in int8 as well, under the fp32 model's id, so it is for benches' throwaway
 * libraries only: shipping it needs a model id of its own.
 */
export function encoderPrecision(use: 'query' | 'batch', env: NodeJS.ProcessEnv = process.env): EncoderPrecision {
  const int8 = env.SHEAF_ENCODER_INT8
  if (int8 === 'off') return 'fp32'
  return int8 === 'all' || use === 'query' ? 'int8' : 'fp32'
}
