// The browser's account calls (spec §7), for the session store and the account islands.
import { api } from '~/lib/api.client.ts';
import type { AuthAnswer, User } from './auth.ts';

const AUTH = '/api/v1/ecommerce-core/auth';
const CUSTOMER = '/api/v1/ecommerce-core/customer';

export const loginCall = (body: { email: string; password: string; cart_items?: unknown[] }) =>
  api<AuthAnswer>(`${AUTH}/customer-login`, { method: 'POST', body });
export const registerCall = (body: { email: string; phone: string; password: string; ref?: string }) =>
  api<AuthAnswer>(`${AUTH}/customer-registration`, { method: 'POST', body });
export const refreshCall = (token: string) => api<AuthAnswer>(`${AUTH}/customer-refresh-auth`, { token });
export const logoutCall = (token: string) => api<{ logged_out: true }>(`${AUTH}/customer-logout`, { method: 'POST', token });
export const forgotCall = (email: string) => api<{ sent: true }>(`${AUTH}/customer-forgot-password`, { method: 'POST', body: { email } });
export const resetCall = (body: { token: string; password: string; password_confirmation: string }) =>
  api<{ reset: true }>(`${AUTH}/customer-reset-password`, { method: 'POST', body });
export const ownResetLinkCall = () => api<{ sent: true }>(`${CUSTOMER}/customer-email-reset-link`);
export const basicInfoCall = () => api<User>(`${CUSTOMER}/customer-basic-info`);
/** spec §7: multipart. */
export const updateBasicInfoCall = (form: FormData) => api<User>(`${CUSTOMER}/update-customer-basic-info`, { method: 'POST', body: form });
export const referralVisitCall = (code: string, landing: string) =>
  api<{ counted: boolean }>('/api/v1/ecommerce-core/partners/visit', { method: 'POST', body: { code, landing } });
