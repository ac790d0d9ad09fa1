export { LANG_CODE_RE, NO_LANGUAGE_CODES, normalizeLangCode, saysNoLanguage } from './codes.ts'
export { detectableText, loadLanguageDetector, MIN_LETTERS, MIN_MARGIN, needsDetection, postLanguage, type LanguageDetector } from './detect.ts'
export { startLanguageUpgrade, type LanguageUpgrade, type LanguageUpgradeOptions } from './upgrade.ts'
