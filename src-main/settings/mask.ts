/** `sk-ant-api03-…abcd` → `sk-…abcd`: enough to recognise a key, never enough to use it. */
export function maskKey(key: string | null): string | null {
  if (!key) return null
  if (key.length < 12) return '…' + '•'.repeat(4)
  const prefix = /^[A-Za-z]{2,4}-/.exec(key)?.[0] ?? ''
  return `${prefix}…${key.slice(-4)}`
}
