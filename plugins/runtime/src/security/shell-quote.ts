/** A word quoted for sh so that it means exactly itself. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:@+,-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}
