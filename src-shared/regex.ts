/** Regular-expression helpers (pure; no DOM, no Node). */

/** `s` with every character a RegExp treats as syntax escaped, so it matches itself literally. */
export const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
