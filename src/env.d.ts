/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    locale: import('./lib/i18n/index.ts').Locale;
    /** The id the front gave the request (x-request-id): in the logs and on the error page. */
    requestId: string;
  }
}

interface ImportMetaEnv {
  /** When `npm run build` made this build (ISO 8601): the lastmod of editors' pages that do not say their own. */
  readonly BUILD_DATE: string;
}

/** A message group in one language (src/lib/i18n/groups.ts, made by src/lib/i18n/message-chunks.ts). */
declare module 'virtual:messages/*' {
  const messages: Record<string, string>;
  export default messages;
}

/** The page frame's strings in one language (src/features/layout/layout.labels.ts, made by labels-chunk.ts). */
declare module 'virtual:frame-labels/*' {
  const labels: unknown;
  export default labels;
}
