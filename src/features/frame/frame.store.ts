// Which header panel is open (spec §2: opening one closes the others; Escape or the overlay closes
// all and clears the search text), shared by the header, the bottom navigation and the overlay.
import { atom } from 'nanostores';

export type Panel = 'catalog' | 'search' | 'menu' | 'account';

export const $panel = atom<Panel | null>(null);
export const $searchText = atom('');

export function openPanel(panel: Panel): void {
  $panel.set(panel);
}

export function togglePanel(panel: Panel): void {
  if ($panel.get() === panel) closePanels();
  else openPanel(panel);
}

export function closePanels(): void {
  $panel.set(null);
  $searchText.set('');
}

/** The header's panels that are popovers, by the id their buttons' popovertarget names (docs/decisions/021). */
export const PANEL_IDS = { catalog: 'catalog-panel', menu: 'menu-panel', search: 'search-panel' } as const;

/**
 * Keeps $panel and the popovers agreeing. The platform opens a popover (its button, before or after the
 * islands hydrate) and closes it (Escape, a tap outside, another panel): the store follows. The store
 * moving on (another panel, the account menu, a modal, Escape in the desktop search) closes it. A popover
 * already open when this starts — tapped before hydration — becomes the store's panel.
 */
export function followPanels(): () => void {
  const panels = (Object.keys(PANEL_IDS) as (keyof typeof PANEL_IDS)[]).flatMap((name) => {
    const element = document.getElementById(PANEL_IDS[name]);
    return element ? [{ name, element }] : [];
  });
  // From the popovers as they are now, not from the event: a tap on another panel's button closes the
  // open one (a tap outside) and opens its own before the first's toggle event arrives.
  const toggled = () => {
    const open = panels.find(({ element }) => element.matches(':popover-open'));
    if (open) {
      if ($panel.get() !== open.name) $panel.set(open.name);
    } else if (panels.some(({ name }) => name === $panel.get())) closePanels();
  };
  for (const { element } of panels) element.addEventListener('toggle', toggled);
  // Only adopts: the desktop search's text typed before hydration has already made the store's panel `search`.
  const tapped = panels.find(({ element }) => element.matches(':popover-open'));
  if (tapped) $panel.set(tapped.name);
  // Only ever closes: a popover is opened by its button, and the desktop search's `search` state must
  // not open the phone's search bar.
  const unlisten = $panel.listen((panel) => {
    for (const { name, element } of panels) if (panel !== name && element.matches(':popover-open')) element.hidePopover();
  });
  return () => {
    unlisten();
    for (const { element } of panels) element.removeEventListener('toggle', toggled);
  };
}

/** Modals that sit above the page; one at a time. */
export type ModalName = 'buyout' | 'buyout-thanks' | 'auth' | 'newsletter';
export const $modal = atom<ModalName | null>(null);

/** Which tab the login/registration modal opens on (spec §2: login by default, configurable). */
export const $authTab = atom<'login' | 'register'>('login');

export function openModal(name: ModalName): void {
  closePanels();
  $modal.set(name);
}

export function openAuth(tab: 'login' | 'register' = 'login'): void {
  $authTab.set(tab);
  openModal('auth');
}

/**
 * A customer's account link (spec §2): the account menu opens instead of the page the link leads to
 * without script. A guest's account control is the button that opens the login dialog (AuthGate.tsx).
 */
export function toggleAccountMenu(event: { preventDefault(): void }): void {
  event.preventDefault();
  togglePanel('account');
}

export function closeModal(): void {
  $modal.set(null);
}
