/** spec §2: a badge shows the count, or '9+' for 10 or more; nothing for zero. */
export function badgeText(count: number): string {
  if (count <= 0) return '';
  return count >= 10 ? '9+' : String(count);
}
