import type { EncoderPrecision } from './use-lite-onnx.ts'

/**
 * Which of the model's two precisions encodes what. fp32 for everything unless SHEAF_ENCODER_INT8 says
 * `questions` (searches' questions in int8, posts' vectors as stored) or `all`. Not the default: int8 questions
 * met the quality and speed gates, not the memory one (the 100,000-post job's peak, docs/load-history.md stop 33). `all`
 * stores int8 vectors under the fp32 model's id, so it is for benches' throwaway libraries only.
 */
export function encoderPrecision(use: 'query' | 'batch', env: NodeJS.ProcessEnv = process.env): EncoderPrecision {
  const int8 = env.SHEAF_ENCODER_INT8
  return int8 === 'all' || (int8 === 'questions' && use === 'query') ? 'int8' : 'fp32'
}
