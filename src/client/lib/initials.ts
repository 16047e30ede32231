/** Initials of up to the first two words of an avatar's alt text: "Ada Lovelace" → "AL". */
export function initials(alt: string | undefined | null): string {
  return (alt ?? '')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => Array.from(word)[0]?.toLocaleUpperCase() ?? '')
    .join('')
}
