// One allocation rule for every amount that belongs to more than one line (issues 55 and 56): the receipts,
// what a carrier collects at the door, promotions' order discounts and caps, a return's unit shares. Largest
// remainder: every kopeck lands on a line, none goes below 0, the shares add up to the total.

/** Splits `total` kopecks over `weights` in proportion, the rounding remainders going to the largest fractions. */
export function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((s, w) => s + w, 0);
  if (sum === 0) return weights.map(() => 0);
  const exact = weights.map((w) => (total * w) / sum);
  const shares = exact.map(Math.floor);
  let left = total - shares.reduce((s, x) => s + x, 0);
  const order = exact.map((x, i) => ({ i, frac: x - Math.floor(x) })).sort((a, b) => b.frac - a.frac || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    shares[i] = (shares[i] ?? 0) + 1;
    left--;
  }
  return shares;
}
