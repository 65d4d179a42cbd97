// Gift certificates (issue 56, docs/promotions.md "Gift certificates"): what the browser and the server
// share — the code's shape and how long a certificate lasts.

/** A certificate's code: 16 signs in four groups, from 31 without look-alikes (0/O, 1/I/L). */
export const GIFT_CODE_SIGNS = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const GIFT_CODE_LENGTH = 16;

/** The code as kept and compared: the signs only, upper case («abcd-efgh…» and «ABCDEFGH…» are one code). */
export const normalizeGiftCode = (raw: string): string => raw.toUpperCase().replace(/[\s-]/g, '');

/** The code as printed in the mail: XXXX-XXXX-XXXX-XXXX. */
export const formatGiftCode = (code: string): string => code.replace(/(.{4})(?=.)/g, '$1-');

/** A certificate may be spent for this many months after it is paid for (its purchase page says so). */
export const GIFT_VALID_MONTHS = 12;

/** At most this many certificates pay one order. */
export const GIFT_CODES_MAX = 5;
