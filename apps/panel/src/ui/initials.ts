/**
 * Avatar initials (spec section 2 Avatar, 9: initials use 2 letters): the first letter of the given
 * and family names when both exist; two letters of the given name alone; two of the family name
 * alone; empty when neither (not the spec's "AA", which read as someone else's initials: issue 40 point 11,
 * decision 037), drawn as an empty neutral disc (styles.css `.avatar--initials:empty`).
 */
export function initials(givenName?: string | null, familyName?: string | null): string {
  const g = (givenName ?? '').trim();
  const f = (familyName ?? '').trim();
  const letters = (s: string) => Array.from(s.replace(/[^\p{L}\p{N}]/gu, ''));
  if (g && f) return `${letters(g)[0] ?? ''}${letters(f)[0] ?? ''}`.toUpperCase();
  const only = letters(g || f);
  return only.slice(0, 2).join('').toUpperCase();
}
