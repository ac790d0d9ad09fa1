/**
 * TensorFlow.js on WebAssembly multiplies a matrix by a weight matrix more slowly as BatchMatMul than
 * as a 1x1 convolution (both run XNNPACK; measured here 17 vs 26 GFLOP/s for 288x512 by 512x1536,
 * with identical results). The sentence model spends most of its time in such products (its
 * feed-forward layers), so they go through the convolution.
 */
interface TensorInfo { dataId: object; shape: number[]; dtype: string }
interface Backend { disposeData(dataId: object): void }
type KernelFunc = (args: { inputs: Record<string, TensorInfo>; backend: Backend; attrs: Record<string, unknown> }) => TensorInfo
interface KernelConfig { kernelName: string; backendName: string; kernelFunc: KernelFunc; setupFunc?: unknown; disposeFunc?: unknown }
interface Tf {
  getKernel(name: string, backend: string): KernelConfig | undefined
  unregisterKernel(name: string, backend: string): void
  registerKernel(config: KernelConfig): void
}

const CONV_ATTRS = { strides: [1, 1], pad: 'valid', dataFormat: 'NHWC', dilations: [1, 1], dimRoundingMode: undefined }

/** Replaces the wasm backend's BatchMatMul with one that sends (rows x k) by (k x n) products, untransposed, to Conv2D. */
export function matmulAsConv(tf: Tf): void {
  const matmul = tf.getKernel('BatchMatMul', 'wasm')
  const conv = tf.getKernel('Conv2D', 'wasm')?.kernelFunc
  const reshape = tf.getKernel('Reshape', 'wasm')?.kernelFunc
  if (!matmul || !conv || !reshape || (matmul.kernelFunc as { viaConv?: true }).viaConv) return
  const kernelFunc: KernelFunc = (args) => {
    const { a, b } = args.inputs
    const { transposeA, transposeB } = args.attrs
    const rows = a.shape.slice(0, -1).reduce((x, y) => x * y, 1)
    const k = a.shape.at(-1)!
    const n = b.shape.at(-1)!
    if (transposeA || transposeB || a.dtype !== 'float32' || b.shape.length < 2 || b.shape.length > a.shape.length || b.shape.slice(0, -2).some((d) => d !== 1) || b.shape.at(-2) !== k) {
      return matmul.kernelFunc(args)
    }
    const { backend } = args
    const x = reshape({ inputs: { x: a }, backend, attrs: { shape: [1, rows, 1, k] } })
    const filter = reshape({ inputs: { x: b }, backend, attrs: { shape: [1, 1, k, n] } })
    const y = conv({ inputs: { x, filter }, backend, attrs: CONV_ATTRS })
    const out = reshape({ inputs: { x: y }, backend, attrs: { shape: [...a.shape.slice(0, -1), n] } })
    for (const t of [x, filter, y]) backend.disposeData(t.dataId)
    return out
  }
  Object.assign(kernelFunc, { viaConv: true })
  tf.unregisterKernel('BatchMatMul', 'wasm')
  tf.registerKernel({ ...matmul, kernelFunc })
}
