// The footer's columns (Footer.astro) fold on phones and stay open on large screens.
export function bootFooter(): void {
  const wide = window.matchMedia('(min-width: 1024px)');
  const sync = () => document.querySelectorAll<HTMLDetailsElement>('[data-footer-column]').forEach((d) => (d.open = wide.matches));
  sync();
  wide.addEventListener('change', sync);
}
