-- pg_trgm gives typo-tolerant and transliteration-friendly search (DESIGN §1 "search"); PGlite loads it as a contrib extension.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
