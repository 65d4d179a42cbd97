/** The ids of the dialogs that command buttons open without script (`commandfor`, docs/decisions/021). */
export const MODAL_IDS = { buyout: 'modal-buyout', auth: 'modal-auth' } as const;
