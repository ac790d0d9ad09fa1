/**
 * The questions the search benches ask (bench/search-profile.ts in-process, bench/search-alone.ts over
 * HTTP): topics, paraphrases, typos, authors, quoted phrases, `-word`, `has:image`, dates and two-topic
 * questions over the topics bench/generate-library.ts writes about.
 */
const TERMS = ['LLM', 'agents', 'evals', 'fine-tuning', 'embeddings', 'RAG', 'inference', 'tokenizer', 'context window', 'React', 'TypeScript',
  'CSS grid', 'bundlers', 'Vite', 'web components', 'accessibility', 'SSR', 'edge functions', 'HTTP caching', 'SQLite', 'Postgres', 'DuckDB',
  'query plans', 'indexes', 'Parquet', 'streaming', 'materialized views', 'typography', 'color systems', 'Figma', 'motion', 'design tokens',
  'prototyping', 'user research', 'onboarding', 'CRISPR', 'exoplanets', 'fusion', 'climate models', 'protein folding', 'telescopes', 'batteries',
  'vaccines', 'quantum', 'neurons', 'sourdough', 'paella', 'ramen', 'fermentation', 'knife skills', 'cast iron', 'espresso', 'tortillas', 'curry', 'pickles']
const SHAPES = [
  (t: string) => t, (t: string) => `posts about ${t}`, (t: string) => `how to get better at ${t}`, (t: string) => `${t} mistakes`,
  (t: string) => `${t} last year`, (t: string) => `has:image ${t}`, (t: string) => `"${t}"`, (t: string) => `${t} -benchmarks`,
  (t: string) => `why I stopped using ${t}`, (t: string) => `${t} tips from:@AnaPark0`, (t: string) => `${t} in 2023`,
]
const typo = (t: string) => (t.length > 5 ? t.slice(0, 2) + t[3] + t[2] + t.slice(4) : t)
export const QUESTIONS = [
  ...TERMS.map((t, i) => SHAPES[i % SHAPES.length](t)),
  ...TERMS.filter((_, i) => i % 4 === 1).map((t) => typo(t.toLowerCase())),
  ...TERMS.filter((_, i) => i % 5 === 2).map((t, i) => `${t} and ${TERMS[(i * 7 + 3) % TERMS.length]}`),
  'make my database faster', 'baking bread at home', 'space telescope pictures', 'writing fast frontend code', 'the docs skip the hard part',
  'a tiny trick that saves hours', 'what nobody tells you about ranking', 'machine learning models for text', 'healthy cooking',
]

/**
 * Every topic in every shape, then the rest (637 questions): more than search's memo of recent query
 * vectors (256), so asked in turn none of them is answered from it.
 */
export const MANY_QUESTIONS = [...new Set([...TERMS.flatMap((t) => SHAPES.map((shape) => shape(t))), ...QUESTIONS])]
