/**
 * Avatar initials (spec section 2 Avatar, 9: initials use 2 letters): the first letter of the given
 * and family names when both exist; two letters of the given name alone; two of the family name
 * alone; "AA" when neither.
 */
export function initials(givenName?: string | null, familyName?: string | null): string {
  const g = (givenName ?? '').trim();
  const f = (familyName ?? '').trim();
  const letters = (s: string) => Array.from(s.replace(/[^\p{L}\p{N}]/gu, ''));
  if (g && f) return `${letters(g)[0] ?? ''}${letters(f)[0] ?? ''}`.toUpperCase() || 'AA';
  const only = letters(g || f);
  if (only.length === 0) return 'AA';
  return only.slice(0, 2).join('').toUpperCase();
}
