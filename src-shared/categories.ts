/** Sheaf's starting categories and their colours. Pure data: the UI and the classifiers share it. */

export type DefaultCategory = { name: string; slug: string; color: string; description: string }

/** Distinct, readable on light and dark backgrounds; categories beyond these reuse them in order. */
export const CATEGORY_COLORS = [
  '#7c3aed', // violet
  '#2563eb', // blue
  '#0891b2', // cyan
  '#db2777', // pink
  '#d97706', // amber
  '#059669', // emerald
  '#dc2626', // red
  '#ca8a04', // yellow
  '#4f46e5', // indigo
  '#65a30d', // lime
  '#0d9488', // teal
  '#9333ea', // purple
  '#ea580c', // orange
  '#475569', // slate
] as const

/** The colour shown for a category whose own colour is missing or not a #rrggbb value. */
export const NEUTRAL_CATEGORY_COLOR = '#64748b'

/** The colour the server gives a new category that names none: the next one in the palette. */
export const nextCategoryColor = (count: number): string => CATEGORY_COLORS[count % CATEGORY_COLORS.length]

/** The description is what the offline categoriser compares posts against: keep it concrete. */
export const DEFAULT_CATEGORIES: readonly DefaultCategory[] = [
  {
    name: 'AI & Machine Learning',
    slug: 'ai-machine-learning',
    color: CATEGORY_COLORS[0],
    description: 'Artificial intelligence, machine learning, LLMs such as GPT, Claude, Gemini, Grok and Llama, AI models, agents, prompts, training, inference, neural networks, datasets, research papers on AI.',
  },
  {
    name: 'Programming',
    slug: 'programming',
    color: CATEGORY_COLORS[1],
    description: 'Software development and code: programming languages, frameworks, libraries, APIs, databases, DevOps, cloud, open source repositories, debugging, architecture, developer experience.',
  },
  {
    name: 'Tools & Products',
    slug: 'tools-products',
    color: CATEGORY_COLORS[2],
    description: 'Apps, gadgets, devices, cars, software products and services, product launches, updates, features, reviews and comparisons, hardware, electric vehicles, games.',
  },
  {
    name: 'Design',
    slug: 'design',
    color: CATEGORY_COLORS[3],
    description: 'Visual and product design: UI, UX, typography, colour, illustration, art, animation, branding, logos, Figma, design systems, architecture and interiors.',
  },
  {
    name: 'Business & Startups',
    slug: 'business-startups',
    color: CATEGORY_COLORS[4],
    description: 'Companies, startups, founders, fundraising, revenue, sales, marketing, growth, pricing, markets, stocks, investing, economy, careers and management.',
  },
  {
    name: 'Science',
    slug: 'science',
    color: CATEGORY_COLORS[5],
    description: 'Physics, biology, chemistry, medicine, health research, space, astronomy, rockets, climate, energy, mathematics, experiments and scientific discoveries.',
  },
  {
    name: 'News & Politics',
    slug: 'news-politics',
    color: CATEGORY_COLORS[6],
    description: 'Current events, breaking news, government, elections, policy, law, courts, regulation, war, international affairs and public debate.',
  },
  {
    name: 'Humor & Memes',
    slug: 'humor-memes',
    color: CATEGORY_COLORS[7],
    description: 'Jokes, memes, funny posts, satire, sarcasm, shitposts, wholesome or absurd moments, things that make you laugh.',
  },
  {
    name: 'Learning & Tutorials',
    slug: 'learning-tutorials',
    color: CATEGORY_COLORS[8],
    description: 'Tutorials, guides, how-to explanations, courses, cheatsheets, documentation, books, threads that teach, tips, lessons and learning resources.',
  },
  {
    name: 'Personal & Lifestyle',
    slug: 'personal-lifestyle',
    color: CATEGORY_COLORS[9],
    description: 'Everyday life, health, fitness, food, travel, family, relationships, productivity habits, motivation, hobbies, music, movies, sports and personal stories.',
  },
]
