/**
 * The judged relevance set for bench/search-relevance.ts: target posts written for it, each with
 * queries a person might type to find it again (paraphrases, misspellings, remembered details,
 * words seen in an image, filters). Exactly one relevant post per query.
 */
import type { PostSpec } from '../tests/search/sheaf-export.ts'

export type QueryKind = 'keyword' | 'paraphrase' | 'misspelling' | 'detail' | 'image-text' | 'filter'
export interface Judged { q: string; kind: QueryKind; target: string }

type Target = PostSpec & { queries: Array<[QueryKind, string]> }

const T = (postId: string, handle: string, at: string, text: string, queries: Array<[QueryKind, string]>, extra: Partial<PostSpec> = {}): Target =>
  ({ postId, handle, name: handle, at, text, queries, ...extra })

export const CATEGORIES = [
  { name: 'Programming', slug: 'programming' }, { name: 'Cooking', slug: 'cooking' }, { name: 'Science', slug: 'science' },
  { name: 'Health', slug: 'health' }, { name: 'Money', slug: 'money' }, { name: 'Travel', slug: 'travel' },
]

export const TARGETS: Target[] = [
  T('7000000000000000001', 'dbtuner', '2024-03-12T10:00:00Z', 'Our Postgres queries got 40x quicker after adding a composite index on (tenant_id, created_at). EXPLAIN ANALYZE showed sequential scans everywhere.', [
    ['paraphrase', 'making slow sql lookups fast'], ['misspelling', 'postgress composit index'], ['keyword', 'explain analyze sequential scan']], { categories: ['programming'] }),
  T('7000000000000000002', 'bakerbee', '2023-10-02T10:00:00Z', 'My sourdough finally has an open crumb: 78% hydration, long cold retard in the fridge overnight, bake at 250C in a Dutch oven.', [
    ['paraphrase', 'bread with airy holes recipe'], ['detail', 'dutch oven 78% hydration'], ['misspelling', 'sourdoh hydration']], { categories: ['cooking'] }),
  T('7000000000000000003', 'astro_kim', '2024-06-20T10:00:00Z', 'JWST spotted carbon dioxide in the atmosphere of a gas giant orbiting a distant star. First clear detection of its kind.', [
    ['paraphrase', 'space telescope finds gas around a planet outside our solar system'], ['filter', 'jwst in:science']], { categories: ['science'] }),
  T('7000000000000000004', 'runcoach', '2022-04-11T10:00:00Z', 'Zone 2 training: keep your heart rate low enough to hold a conversation. Build the aerobic base before adding intervals.', [
    ['paraphrase', 'easy jogging pace to improve endurance'], ['keyword', 'zone 2 heart rate'], ['misspelling', 'aerobik base']], { categories: ['health'] }),
  T('7000000000000000005', 'frugalfin', '2023-01-15T10:00:00Z', 'Index funds beat most active managers over 15 years once you account for fees. Keep costs low and stay invested.', [
    ['paraphrase', 'passive investing cheaper than stock pickers'], ['filter', 'in:money fees 2023']], { categories: ['money'] }),
  T('7000000000000000006', 'rustfan', '2024-09-01T10:00:00Z', 'Explaining the Rust borrow checker with one diagram: many readers or one writer, never both at the same time.', [
    ['keyword', 'rust borrow checker'], ['image-text', 'mutable reference aliasing rules'], ['filter', 'from:@rustfan diagram']], { media: [{ type: 'photo', ocrText: 'MUTABLE REFERENCE rules: no aliasing while a &mut exists' }], categories: ['programming'] }),
  T('7000000000000000007', 'tokyotrips', '2023-04-03T10:00:00Z', 'Cherry blossom season in Kyoto: go to the Philosopher\'s Path at 6am before the crowds arrive.', [
    ['paraphrase', 'sakura viewing japan avoid tourists early morning'], ['filter', 'kyoto in April 2023'], ['misspelling', 'philosophers pth kyto']], { categories: ['travel'] }),
  T('7000000000000000008', 'chefluca', '2024-11-20T10:00:00Z', 'Carbonara has no cream. Guanciale, egg yolks, pecorino, black pepper and pasta water for the emulsion.', [
    ['paraphrase', 'authentic roman pasta sauce with eggs'], ['keyword', 'guanciale pecorino'], ['misspelling', 'carbonra without creme']], { categories: ['cooking'] }),
  T('7000000000000000009', 'sleepdoc', '2024-01-08T10:00:00Z', 'Caffeine has a half-life of about five hours. That afternoon coffee is still in your system at bedtime.', [
    ['paraphrase', 'why coffee late in the day ruins my sleep'], ['detail', 'half-life five hours']], { categories: ['health'] }),
  T('7000000000000000010', 'gitguru', '2023-07-19T10:00:00Z', 'git rebase --onto lets you move a branch to a new base without dragging along the commits you did not want.', [
    ['keyword', 'rebase onto'], ['paraphrase', 'transplant my branch commits to another parent'], ['misspelling', 'git rebsae']], { categories: ['programming'] }),
  T('7000000000000000011', 'climatenerd', '2022-09-14T10:00:00Z', 'Heat pumps move heat rather than make it, so they deliver three to four units of warmth per unit of electricity.', [
    ['paraphrase', 'efficient home heating electricity instead of gas boiler'], ['detail', 'three to four units of warmth']], { categories: ['science'] }),
  T('7000000000000000012', 'nomadnina', '2024-05-25T10:00:00Z', 'Lisbon tip: buy a Viva Viagem card and ride tram 28 early, then walk down through Alfama to the river.', [
    ['paraphrase', 'portugal capital public transport advice'], ['keyword', 'tram 28 alfama'], ['filter', 'from:@nomadnina lisbon']], { categories: ['travel'] }),
  T('7000000000000000013', 'mlops', '2024-02-02T10:00:00Z', 'We cut our GPU bill in half by batching inference requests and quantising the model to int8.', [
    ['paraphrase', 'reduce machine learning serving costs'], ['keyword', 'quantising int8 inference'], ['misspelling', 'quantizing inferrence gpu']], { categories: ['programming'] }),
  T('7000000000000000014', 'gardengrl', '2021-06-30T10:00:00Z', 'Tomatoes: water deeply twice a week rather than a little every day, and pinch out the side shoots.', [
    ['paraphrase', 'how often to irrigate vegetable plants'], ['keyword', 'pinch side shoots'], ['filter', 'tomatoes before:2022']]),
  T('7000000000000000015', 'typesafe', '2024-08-08T10:00:00Z', 'TypeScript tip: use the satisfies operator to check an object against a type without widening it.', [
    ['keyword', 'satisfies operator'], ['paraphrase', 'validate object literal type without losing inference'], ['filter', 'typescript in:programming']], { categories: ['programming'] }),
  T('7000000000000000016', 'budgetbob', '2022-12-01T10:00:00Z', 'The 50/30/20 rule: half your income to needs, thirty percent to wants and twenty percent to savings.', [
    ['paraphrase', 'simple way to split my salary each month'], ['detail', '50/30/20 rule'], ['misspelling', 'budjet rule savngs']], { categories: ['money'] }),
  T('7000000000000000017', 'neurosci', '2023-03-03T10:00:00Z', 'New study: a single night of poor sleep measurably impairs memory consolidation in the hippocampus.', [
    ['paraphrase', 'bad rest hurts remembering things research'], ['keyword', 'hippocampus memory consolidation']], { categories: ['science'] }),
  T('7000000000000000018', 'uxlaura', '2024-10-10T10:00:00Z', 'Accessibility checklist: every button needs a visible focus ring and at least 4.5:1 text contrast.', [
    ['paraphrase', 'making websites usable for blind and low vision people'], ['misspelling', 'accesibility contrast'], ['image-text', 'focus ring contrast checklist']], { media: [{ type: 'photo', ocrText: 'WCAG checklist: focus ring visible, contrast 4.5:1, labels on inputs' }] }),
  T('7000000000000000019', 'coffeegeek', '2023-11-11T10:00:00Z', 'Dial in espresso by changing one thing at a time: grind finer if it runs fast, aim for 1:2 ratio in 28 seconds.', [
    ['paraphrase', 'how to adjust my coffee machine shots'], ['keyword', 'espresso grind ratio'], ['filter', 'has:video espresso']], { media: [{ type: 'video' }], categories: ['cooking'] }),
  T('7000000000000000020', 'secops', '2024-04-04T10:00:00Z', 'Turn on passkeys everywhere you can. They cannot be phished the way passwords and SMS codes can.', [
    ['paraphrase', 'safer login than passwords'], ['keyword', 'passkeys phished'], ['misspelling', 'paskeys phishing']], { categories: ['programming'] }),
  T('7000000000000000021', 'historybuff', '2022-08-08T10:00:00Z', 'The Library of Alexandria was not destroyed in one fire; it declined over centuries as funding dried up.', [
    ['paraphrase', 'ancient egyptian book collection slowly faded'], ['keyword', 'library of alexandria']]),
  T('7000000000000000022', 'vimwizard', '2023-02-14T10:00:00Z', 'Vim macro trick: record with qa, replay with @a, and run it on every line with :%norm @a', [
    ['keyword', 'vim macro norm'], ['paraphrase', 'repeat editor keystrokes on all lines'], ['filter', 'from:@vimwizard']], { categories: ['programming'] }),
  T('7000000000000000023', 'moneymaya', '2024-07-07T10:00:00Z', 'Paying off the highest interest credit card first (avalanche) saves the most money overall.', [
    ['paraphrase', 'best order to clear debts'], ['misspelling', 'avalanch credit crd'], ['filter', 'in:money last year']], { categories: ['money'] }),
  T('7000000000000000024', 'screenshotter', '2024-12-01T10:00:00Z', 'This chart says it all.', [
    ['image-text', 'median rent versus wages chart'], ['detail', 'screenshot of rent vs wages']], { media: [{ type: 'photo', ocrText: 'Median rent vs median wages, 2000-2024: rent +160%, wages +70%' }] }),
  T('7000000000000000025', 'slides', '2023-09-09T10:00:00Z', 'Slides from my talk are up!', [
    ['image-text', 'event sourcing projections talk slides'], ['detail', 'talk slides event sourcing']], { media: [{ type: 'photo', ocrText: 'Event Sourcing in practice: commands, events, projections' }] }),
  T('7000000000000000026', 'foodscience', '2022-11-11T10:00:00Z', 'Salt your steak at least 40 minutes before cooking, or right before. Anything in between gives a wet surface.', [
    ['paraphrase', 'when to season meat before searing'], ['detail', 'salt steak 40 minutes']], { categories: ['cooking'] }),
  T('7000000000000000027', 'physicsfun', '2024-03-30T10:00:00Z', 'Why is the sky blue? Rayleigh scattering: shorter wavelengths bounce around the atmosphere far more than red light.', [
    ['paraphrase', 'reason the daytime heavens look azure'], ['keyword', 'rayleigh scattering'], ['misspelling', 'raleigh scatering']], { categories: ['science'] }),
  T('7000000000000000028', 'devrel', '2023-05-05T10:00:00Z', 'Write the README first. If you cannot explain how to use the library in five lines, the API is wrong.', [
    ['paraphrase', 'documentation driven design for libraries'], ['keyword', 'write the readme first']], { categories: ['programming'] }),
  T('7000000000000000029', 'hikerhan', '2021-09-19T10:00:00Z', 'Tour du Mont Blanc in 10 days: book the refuges in January, they fill up fast.', [
    ['paraphrase', 'alps multi day trek planning huts'], ['filter', 'mont blanc 2021'], ['misspelling', 'mont blanck refuges']], { categories: ['travel'] }),
  T('7000000000000000030', 'habitlab', '2024-06-01T10:00:00Z', 'Habits stick when they are tiny: one push-up, one line of writing. Make it too easy to skip.', [
    ['paraphrase', 'start very small to build routines'], ['keyword', 'tiny habits push-up']], { categories: ['health'] }),
  T('7000000000000000031', 'distsys', '2022-03-03T10:00:00Z', 'CAP theorem in practice: during a network partition you choose between consistency and availability.', [
    ['keyword', 'cap theorem partition'], ['paraphrase', 'tradeoff when servers cannot talk to each other'], ['filter', 'from:@distsys consistency']], { categories: ['programming'] }),
  T('7000000000000000032', 'catvids', '2024-02-29T10:00:00Z', 'My cat discovered the printer and now guards every page that comes out.', [
    ['paraphrase', 'kitten protecting paper from office machine'], ['filter', 'has:video cat printer']], { media: [{ type: 'video' }] }),
]

export const judged = (): Judged[] =>
  TARGETS.flatMap((t) => t.queries.map(([kind, q]) => ({ q, kind, target: t.postId })))

/** Posts that share words with the targets without being what those queries mean. */
export function distractors(n: number, seed = 7): PostSpec[] {
  let a = seed
  const rnd = () => ((a = (a * 1103515245 + 12345) % 2147483648) / 2147483648)
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]
  const subjects = ['index', 'bread', 'telescope', 'coffee', 'passwords', 'tram', 'cat', 'pasta', 'sleep', 'budget', 'git branch', 'heat',
    'rust', 'contrast', 'salt', 'readme', 'habits', 'chart', 'slides', 'debt', 'garden', 'vim', 'gpu', 'memory', 'sky']
  const frames = ['Hiring: we need someone who knows {s}. DM me.', 'Unpopular opinion about {s}: it is overrated.', 'Giveaway! Win a {s} mug.',
    'Podcast episode 12 mentions {s} briefly.', 'Conference schedule is out, one session on {s}.', 'Meme of the day: me vs {s}.',
    'Price of {s} went up again this month.', 'Poll: do you like {s}? Vote below.']
  return Array.from({ length: n }, (_, i) => ({
    postId: String(8000000000000000000n + BigInt(i)),
    handle: `noise${i % 37}`,
    at: Date.UTC(2021, 0, 1) + Math.floor(rnd() * 4 * 365) * 86_400_000,
    text: pick(frames).replace('{s}', pick(subjects)),
  }))
}
