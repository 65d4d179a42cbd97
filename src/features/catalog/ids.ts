// How the shop's ids are written, for the schemas (catalog.schema.ts) and the path readers (catalog.ts) alike:
// apart from both, so that neither imports the other for them.

/** Ids are PostgreSQL integers. */
export const MAX_ID = 2_147_483_647;

/** How an id is written in a path or a query: digits only, no leading zero. */
export const ID_PATTERN = /^[1-9]\d{0,9}$/;
