// What the frame (the header, the bottom navigation, the modals and the toasts: features/layout) shares with
// the domains whose parts it shows: the messages its modals hand to the forms they hold (the login, the buyout
// request). The frame's state is frame.store.ts. Both sit below every domain, so a form can close its modal
// without importing the frame that holds it (docs/decisions/027).
import type { GroupMessages } from '~/lib/i18n/groups.ts';

/** The modals' messages, loaded once a modal opens. */
export type ModalMessages = GroupMessages<'modals'>;
