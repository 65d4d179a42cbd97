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

/**
 * The click of a link that opens a panel instead of going to its page (docs/decisions/014): the page
 * is where the link leads without scripts; with them the panel opens.
 */
export function panelLink(panel: Panel): (event: { preventDefault(): void }) => void {
  return (event) => {
    event.preventDefault();
    togglePanel(panel);
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

/** spec §2: a guest's click on orders or the wishlist opens the login modal; a customer's follows the link. */
export function guestGate(loggedIn: boolean): (event: { preventDefault(): void }) => void {
  return (event) => {
    if (loggedIn) return;
    event.preventDefault();
    openAuth();
  };
}

/**
 * The account icon's click (spec §2): logged in, the account menu; logged out, the login modal. A link
 * to /dashboard underneath, which the click never follows.
 */
export function accountLink(loggedIn: boolean): (event: { preventDefault(): void }) => void {
  return (event) => {
    event.preventDefault();
    if (loggedIn) togglePanel('account');
    else openAuth();
  };
}

export function closeModal(): void {
  $modal.set(null);
}
