import type { PipelineStage } from '../../src-shared/schemas/pipeline.ts'

export const STAGE_LABELS: Record<PipelineStage, string> = {
  entity_extraction: 'Entities',
  vision_analysis: 'Images',
  semantic_tagging: 'Tags',
  categorization: 'Categories',
}

export const STAGE_HINTS: Record<PipelineStage, string> = {
  entity_extraction: 'People, places, organisations, links and repositories named in each post',
  vision_analysis: 'Text and content of attached images',
  semantic_tagging: 'Topics, summary, sentiment and a suggested action',
  categorization: 'Each post placed into your categories',
}
