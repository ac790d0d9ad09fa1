import type { EncoderPrecision } from './use-lite-onnx.ts'

/**
 * Which of the model's two precisions encodes what. fp32 for everything unless SHEAF_ENCODER_INT8 says
 * `questions` (searches' questions in int8, posts' vectors as stored) or `all`. Not the default: int8 questions move
 * the first result of 2.6% of the answers at 100,000 posts, and no served gain has shown through the bench machine's
 * spread yet (docs/load-history.md, stops 33-35). `all`
 * stores int8 vectors under the fp32 model's id, so it is for benches' throwaway libraries only.
 */
export function encoderPrecision(use: 'query' | 'batch', env: NodeJS.ProcessEnv = process.env): EncoderPrecision {
  const int8 = env.SHEAF_ENCODER_INT8
  return int8 === 'all' || (int8 === 'questions' && use === 'query') ? 'int8' : 'fp32'
}
