// The account, orders and wishlist controls (spec §2): a customer follows the link (or, for the account,
// opens the profile menu); a guest gets the login dialog. Public pages are the same HTML for everyone, so
// both forms are in it and CSS shows the one the head's boot line chose before the first paint
// (session-mark.ts): the guest's is a button that opens the dialog by its command, without waiting for
// any island (docs/decisions/021).
import type { AnchorHTMLAttributes, MouseEvent, ReactNode } from 'react';
import { openAuth } from '~/features/frame/frame.store.ts';
import { MODAL_IDS } from './modal-ids.ts';

export interface AuthGateProps {
  href: string;
  className: string;
  /** Added to the customer's link only. */
  customerClassName?: string;
  /** The customer's link's attributes (the account's menu state). */
  customer?: AnchorHTMLAttributes<HTMLAnchorElement>;
  onCustomerClick?: (event: MouseEvent<HTMLAnchorElement>) => void;
  /** What each form shows: a guest's has no counts (a guest has no wishlist), so no badge is there twice. */
  children: (guest: boolean) => ReactNode;
}

export function AuthGate({ href, className, customerClassName = '', customer, onCustomerClick, children }: AuthGateProps) {
  return (
    <>
      <a href={href} {...customer} onClick={onCustomerClick} className={`customer-only ${className} ${customerClassName}`}>
        {children(false)}
      </a>
      <button type="button" commandfor={MODAL_IDS.auth} command="show-modal" onClick={() => openAuth()} className={`guest-only ${className}`}>
        {children(true)}
      </button>
    </>
  );
}
