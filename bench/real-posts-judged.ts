/** Placeholder, filled below. */
export const JUDGED: Array<{ id: string; lang: string; categories: string[]; good: string[]; bad: string[] }> = []
