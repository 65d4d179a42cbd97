// The login modal's forms (auth/AuthForms.tsx) as the frame shows them: with the guest's cart lines, which a
// login merges into the customer's cart, and the partner's referral code, which a registration names. Loaded
// with the forms when the modal opens (Modals.tsx), so neither store weighs on the first page load.
import AuthForms, { type SignInCarry } from '~/features/auth/AuthForms.tsx';
import { guestItems, saveGuestLines } from '~/features/cart/cart.store.ts';
import type { ModalMessages } from '~/features/frame/frame.ts';
import { takeReferralCode } from '~/features/partners/partners.store.ts';

const carry: SignInCarry = {
  guestLines: guestItems,
  dropGuestLines: () => saveGuestLines([]),
  referralCode: () => takeReferralCode(),
};

export default function AuthModal(props: { m: ModalMessages; initialTab?: 'login' | 'register' }) {
  return <AuthForms {...props} carry={carry} />;
}
