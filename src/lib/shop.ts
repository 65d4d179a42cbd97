// Business constants of spec §9 that more than one feature shows.

/** Average delivery, in days (the product page, the buyout info screen). */
export const AVERAGE_DELIVERY_DAYS = 14;
