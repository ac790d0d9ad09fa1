import type { EncoderPrecision } from './use-lite-onnx.ts'

/**
 * Which of the model's two precisions encodes what. Searches' questions in int8 (per-row activations:
 * int8-matmul.ts QUESTION_INT8), posts' vectors in fp32 as stored. The questions' int8 model takes about a third off the model
 * thread's CPU a search (0.75-0.9 against 0.49-0.56 ms at 100,000 posts, docs/load-history.md, "Stop 36") and moves the
 * first result of 2.6% of the answers at 100,000 posts (under the 3% allowed); on the judged set fused MRR@10 is 0.865
 * against 0.869 (one of 84 questions from rank 2 to 5). SHEAF_ENCODER_INT8=off keeps fp32 for everything; `all`
 * stores int8 vectors under the fp32 model's id, so it is for benches' throwaway libraries only.
 */
export function encoderPrecision(use: 'query' | 'batch', env: NodeJS.ProcessEnv = process.env): EncoderPrecision {
  const int8 = env.SHEAF_ENCODER_INT8 ?? 'questions'
  return int8 === 'all' || (int8 === 'questions' && use === 'query') ? 'int8' : 'fp32'
}
