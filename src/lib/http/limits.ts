/** Bodies larger than this are refused (413): nothing the shop accepts comes close. */
export const MAX_BODY_BYTES = 1_000_000;
