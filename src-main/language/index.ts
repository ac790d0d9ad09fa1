// Language codes and detection only: no store, no other capability (the import's parse worker loads it).
export { LANG_CODE_RE, NO_LANGUAGE_CODES, normalizeLangCode, saysNoLanguage } from './codes.ts'
export { detectableText, loadLanguageDetector, MIN_LETTERS, MIN_MARGIN, needsDetection, postLanguage, type LanguageDetector } from './detect.ts'
