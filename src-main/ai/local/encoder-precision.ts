import type { EncoderPrecision } from './use-lite-onnx.ts'

/**
 * Which of the model's two precisions encodes what. fp32 for everything unless SHEAF_ENCODER_INT8 says
 * `questions` (searches' questions in int8, posts' vectors as stored) or `all`: a measuring switch while
 * int8 is a product decision (docs/load.md, stop 32), not a setting. `all` stores int8 vectors under the fp32
 * model's id, so it is for benches' throwaway libraries only: shipping it needs a model id of its own.
 */
export function encoderPrecision(use: 'query' | 'batch', env: NodeJS.ProcessEnv = process.env): EncoderPrecision {
  const int8 = env.SHEAF_ENCODER_INT8
  return int8 === 'all' || (int8 === 'questions' && use === 'query') ? 'int8' : 'fp32'
}
