// The catalogue panel built from mega-categories (spec §2): a mega-menu under the header on large
// screens, the full-screen overlay 'Каталог' on phones (opened from the header or the bottom navigation).
// A popover (docs/decisions/021): its buttons open it without script, so a tap before the islands have
// hydrated shows it at once, with the top categories the page was rendered with; the whole tree, asked
// for on intent, takes their place when it comes.
import { useState } from 'react';
import type { MegaCategory } from '~/features/catalog/catalog.ts';
import type { MenuLink } from '~/features/content/content.ts';
import { Icon } from '~/components/ui/Icon.tsx';

// The whole screen above the bottom navigation on phones; under the header on large screens (anchored to it
// in global.css).
const PANEL_CLASS = 'panel inset-x-0 top-0 bottom-14 overflow-y-auto lg:max-h-[70vh] lg:border-t lg:border-line lg:shadow-xl';

export interface CatalogPanelProps {
  id: string;
  /** undefined while the tree loads, null when loading failed. */
  tree: MegaCategory[] | null | undefined;
  /** The top categories, shown until the tree has come. */
  roots: MenuLink[];
  title: string;
  allLabel: string;
  loadingLabel: string;
  failedLabel: string;
  closeLabel: string;
}

export function CatalogPanel({ id, tree, roots, title, allLabel, loadingLabel, failedLabel, closeLabel }: CatalogPanelProps) {
  return (
    <div id={id} popover="auto" role="dialog" aria-label={title} aria-busy={tree === undefined} className={PANEL_CLASS}>
      <div className="flex items-center justify-between border-b border-line px-4 py-3 lg:hidden">
        <h2 className="font-display text-2xl font-500">{title}</h2>
        <button
          type="button"
          popoverTarget={id}
          popoverTargetAction="hide"
          aria-label={closeLabel}
          className="grid h-10 w-10 cursor-pointer place-items-center"
        >
          <Icon name="close" />
        </button>
      </div>
      {tree && tree.length > 0 ? (
        <CatalogTree tree={tree} title={title} allLabel={allLabel} />
      ) : (
        <div className="container py-4 lg:py-8">
          <ul className="flex flex-col gap-1 lg:flex-row lg:gap-8">
            {roots.map((r) => (
              <li key={r.url}>
                <a href={r.url} className="block py-2.5 text-sm font-600 hover:text-accent">
                  {r.name}
                </a>
              </li>
            ))}
          </ul>
          <p role="status" className="py-6 text-sm text-ink-soft">
            {tree === undefined ? loadingLabel : failedLabel}
          </p>
        </div>
      )}
    </div>
  );
}

function CatalogTree({ tree, title, allLabel }: { tree: MegaCategory[]; title: string; allLabel: string }) {
  const [rootId, setRootId] = useState(tree[0]?.id);
  const root = tree.find((r) => r.id === rootId) ?? tree[0];
  if (!root) return null;
  const tabs = (
    <div role="tablist" aria-label={title} className="flex gap-1 lg:flex-col lg:gap-0">
      {tree.map((r) => (
        <button
          key={r.id}
          type="button"
          role="tab"
          aria-selected={r.id === root.id}
          onClick={() => setRootId(r.id)}
          onMouseEnter={() => setRootId(r.id)}
          className={`flex cursor-pointer items-center gap-3 px-3 py-2.5 text-left text-sm font-600 lg:px-4 lg:py-3 ${r.id === root.id ? 'bg-ink text-white lg:bg-paper-warm lg:text-ink' : 'text-ink-soft hover:text-ink'}`}
        >
          {r.icon && <img src={r.icon} width={24} height={24} alt="" className={`hidden lg:block ${r.id === root.id ? '' : 'opacity-60'}`} />}
          {r.name}
        </button>
      ))}
    </div>
  );

  return (
    <div className="container flex flex-col gap-4 py-4 lg:flex-row lg:gap-10 lg:py-8">
      <div className="lg:w-56 lg:shrink-0">{tabs}</div>
      <div className="grid flex-1 gap-x-8 gap-y-6 sm:grid-cols-2 lg:grid-cols-5" role="tabpanel" aria-label={root.name}>
        {root.childs.data.map((dep) => (
          <section key={dep.id} aria-label={dep.name}>
            <a href={dep.url} className="flex items-center gap-2 text-sm font-700 uppercase tracking-wider hover:text-accent">
              {dep.icon && <img src={dep.icon} width={24} height={24} alt="" />}
              {dep.name}
            </a>
            <ul className="mt-3 space-y-2 pl-8 text-sm text-ink-soft lg:pl-0">
              {dep.childs.data.map((leaf) => (
                <li key={leaf.id}>
                  <a href={leaf.url} className="hover:text-ink">
                    {leaf.name}
                  </a>
                </li>
              ))}
            </ul>
          </section>
        ))}
        <a href={root.url} className="self-start text-sm font-600 text-accent underline underline-offset-4 sm:col-span-2 lg:col-span-5">
          {allLabel}: {root.name}
        </a>
      </div>
    </div>
  );
}
