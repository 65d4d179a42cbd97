// The browser's personal-data calls (152-ФЗ, issue 54), for the profile page's privacy panel.
import { api } from '~/lib/api.client.ts';

const CUSTOMER = '/api/v1/ecommerce-core/customer';

export const marketingCall = (subscribed: boolean) => api<{ subscribed: boolean }>(`${CUSTOMER}/marketing`, { method: 'POST', body: { subscribed } });
export const deleteAccountCall = (password: string) => api<{ deleted: true }>(`${CUSTOMER}/delete-account`, { method: 'POST', body: { password } });
