/** The one spelling of a tag: trimmed, lower case, no leading #. */
export const normalizeTag = (s: string): string => s.trim().replace(/^#+/, '').toLowerCase().slice(0, 80)
