import type { AiProviderName } from '../../src-shared/schemas/settings.ts'
import { createAnthropicProvider } from './providers/anthropic.ts'
import { createClaudeCliProvider } from './providers/claude-cli.ts'
import { createLocalProvider } from './providers/local.ts'
import type { LocalRunner } from './providers/local-runner.ts'
import { createOpenAiProvider } from './providers/openai.ts'
import type { AiProvider } from './types.ts'

export type {
  AiProvider, AnalyzeContext, AnalyzeInput, AnalyzeResult, CategoryChoice, EmbedResult, PostAction, PostAnalysis, ProviderTest, RerankInput, RerankResult, RerankScore, Sentiment, Usage,
} from './types.ts'
export { addUsage, NO_USAGE } from './types.ts'
export { createAnthropicProvider, ANTHROPIC_DEFAULT_MODEL, type AnthropicProviderOptions } from './providers/anthropic.ts'
export { createOpenAiProvider, OPENAI_DEFAULT_MODEL, OPENAI_DEFAULT_EMBEDDING_MODEL, type OpenAiProviderOptions } from './providers/openai.ts'
export { createClaudeCliProvider, claudeCliStatus, type ClaudeCliOptions, type ClaudeCliStatus } from './providers/claude-cli.ts'
export { createLocalProvider, toEnginePost } from './providers/local.ts'
export { createInProcessRunner, createModelThreadRunner, createWorkerRunner, type LocalRunner } from './providers/local-runner.ts'
export { createWorkerPool } from './providers/local-pool.ts'
export { createEncoderHost, sharedEncoderHost, type EncoderHost } from './providers/encoder-host.ts'
export { LOCAL_MODEL, LOCAL_EMBEDDING_MODEL, ossReportOf, type EnginePost, type EngineConfig, type OssReport, type PostReading, type SemanticResult } from './providers/local-engine.ts'
export { isAbort, RemoteError } from './providers/remote-call.ts'
export { RERANK_PROMPT_VERSION } from './prompts/rerank.ts'

/** Everything needed to build any provider; keys come from the credential store at call time. */
export interface ProviderConfig {
  name: AiProviderName
  apiKey?: string | null
  model?: string | null
  baseUrl?: string | null
  embeddingModel?: string | null
  claudeCommand?: string
  localRunner?: LocalRunner
}

export function createProvider(c: ProviderConfig): AiProvider {
  switch (c.name) {
    case 'local':
      return createLocalProvider({ runner: c.localRunner })
    case 'anthropic':
      return createAnthropicProvider({ apiKey: c.apiKey ?? '', model: c.model, baseUrl: c.baseUrl })
    case 'openai':
      return createOpenAiProvider({ apiKey: c.apiKey, model: c.model, baseUrl: c.baseUrl, embeddingModel: c.embeddingModel })
    case 'claude-cli':
      return createClaudeCliProvider({ command: c.claudeCommand, model: c.model })
  }
}
