/**
 * Labelled tag pairs for bench/tag-merge.ts: should the two be one tag (same) or stay apart (different)?
 * How the set was built: (1) well-known abbreviations, initialisms and spelling variants a library
 * collects (written by hand, not taken from the code's alias list); (2) the distinct pairs issue 12
 * names (java/javascript, react/preact, rust/trust) and look-alikes of the same kind: neighbours in
 * meaning (countries, products, languages), a short word that begins a longer one, initials that
 * spell a word; (3) every pair of tags of the real fixture posts (657 tags over 1,381 posts, the
 * GraphQL captures, the flat excerpt and the X archive) that some spelling evidence relates, labelled
 * by hand, leaving out the pairs we could not decide (robots/robotics). Synonyms with no spelling in
 * common (film/movie) are in the set too: only the alias list can merge them.
 */
export type TagPair = [string, string]

export const SAME: TagPair[] = [
  // well-known short forms
  ['ml', 'machine learning'], ['ai', 'artificial intelligence'], ['nlp', 'natural language processing'], ['cv', 'computer vision'],
  ['dl', 'deep learning'], ['rl', 'reinforcement learning'], ['cs', 'computer science'], ['nyc', 'new york city'], ['uk', 'united kingdom'],
  ['usa', 'united states of america'], ['eu', 'european union'], ['un', 'united nations'], ['ev', 'electric vehicles'], ['evs', 'electric vehicles'],
  ['ui', 'user interface'], ['ux', 'user experience'], ['os', 'operating system'], ['ar', 'augmented reality'], ['vr', 'virtual reality'],
  ['iot', 'internet of things'], ['saas', 'software as a service'], ['seo', 'search engine optimization'], ['ceo', 'chief executive officer'],
  ['diy', 'do it yourself'], ['faq', 'frequently asked questions'], ['gpu', 'graphics processing unit'], ['cpu', 'central processing unit'],
  ['api', 'application programming interface'], ['llm', 'large language model'], ['oss', 'open source software'], ['hn', 'hacker news'],
  ['repo', 'repository'], ['repos', 'repositories'], ['docs', 'documentation'], ['doc', 'documentation'], ['pic', 'picture'], ['pics', 'pictures'],
  ['math', 'mathematics'], ['maths', 'mathematics'], ['dev', 'developer'], ['devs', 'developers'], ['info', 'information'], ['app', 'application'],
  ['apps', 'applications'], ['photo', 'photograph'], ['tech', 'technology'], ['mods', 'moderators'], ['stats', 'statistics'], ['admin', 'administrator'],
  ['config', 'configuration'], ['auth', 'authentication'], ['prod', 'production'], ['env', 'environment'], ['perf', 'performance'],
  // joined and split spellings
  ['vscode', 'vs code'], ['webdev', 'web dev'], ['opensource', 'open source'], ['gamedev', 'game dev'], ['frontend', 'front-end'],
  ['javascript', 'java script'], ['nextjs', 'next.js'], ['devops', 'dev ops'], ['chatgpt', 'chat gpt'], ['youtube', 'you tube'],
  // in the alias list already, or plural/typo folding
  ['js', 'javascript'], ['ts', 'typescript'], ['k8s', 'kubernetes'], ['llm', 'llms'], ['postgres', 'postgresql'], ['meme', 'memes'],
  ['humour', 'humor'], ['crypto', 'cryptocurrency'], ['machine-learning', 'machine learning'], ['tv', 'television'], ['db', 'database'],
  // no spelling in common
  ['film', 'movie'], ['films', 'movies'], ['car', 'automobile'], ['coding', 'programming'], ['funny', 'humor'],
]

export const DIFFERENT: TagPair[] = [
  // named by issue 12
  ['java', 'javascript'], ['react', 'preact'], ['rust', 'trust'],
  // neighbours in meaning
  ['iran', 'iraq'], ['austria', 'australia'], ['sweden', 'switzerland'], ['model s', 'model x'], ['claude', 'claude code'], ['gpt', 'chatgpt'],
  ['c', 'c++'], ['python', 'pytorch'], ['frontend', 'backend'], ['deep learning', 'machine learning'], ['sql', 'nosql'], ['ios', 'android'],
  ['docker', 'kubernetes'], ['linux', 'unix'], ['bitcoin', 'ethereum'], ['github', 'gitlab'], ['tesla', 'spacex'], ['vue', 'nuxt'],
  ['ai', 'ml'], ['film', 'photography'], ['cat', 'dog'], ['coffee', 'tea'], ['spanish', 'mexican'], ['politics', 'policy'],
  // a short word that begins a longer one
  ['git', 'github'], ['java', 'javelin'], ['react', 'reactions'], ['app', 'apple'], ['car', 'cartoon'], ['art', 'artist'], ['dev', 'devops'],
  ['crypto', 'cryptography'], ['doc', 'docker'], ['pic', 'picnic'], ['photo', 'photoshop'], ['info', 'infographic'], ['mongo', 'mongolia'],
  ['space', 'spacex'], ['data', 'database'], ['cloud', 'cloudflare'], ['post', 'postgres'], ['meta', 'metaphysics'], ['uk', 'ukraine'],
  ['seo', 'seoul'], ['cs', 'css'], ['ar', 'art'], ['bio', 'biography'], ['mac', 'macaroni'], ['pro', 'programming'], ['ant', 'anthropic'],
  // initials that spell something else
  ['pr', 'public relations'], ['ev', 'event venue'], ['os', 'open source'], ['ai', 'adobe illustrator'], ['ml', 'major league'],
  // from the fixture vocabulary (spelling evidence, different things)
  ['twitter', 'twitterspaces'], ['github', 'git'], ['gitlab', 'git'], ['data', 'datadog'], ['databases', 'data'], ['superhero', 'super'],
  ['engineers', 'engine'], ['views', 'viewers'], ['product', 'production'], ['walls', 'wallet'], ['tech', 'technique'], ['product', 'productivity'],
  ['rest', 'restaurant'], ['cams', 'cameron'], ['supercharger', 'super'], ['incentive', 'inc'], ['devops', 'devs'], ['blockbuster', 'blocks'],
  ['bothers', 'bots'], ['tinybird cli', 'tcs'], ['水星の魔女', '水星の魔女最終回'], ['好きめが', '好きめががはじまる'],
]
