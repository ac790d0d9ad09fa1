/** The language the interface is written in: posts in any other get a small badge. */
export const UI_LANGUAGE = 'en'

let names: Intl.DisplayNames | null = null

/** A language code's name in the interface's language ("de" → "German"); the code itself if unknown. */
export function languageName(code: string): string {
  try {
    names ??= new Intl.DisplayNames([UI_LANGUAGE], { type: 'language', fallback: 'none' })
    return names.of(code) ?? code
  } catch {
    return code
  }
}
