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

export function closeModal(): void {
  $modal.set(null);
}
