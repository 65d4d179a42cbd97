/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    locale: import('./lib/i18n/index.ts').Locale;
    /** The id the front gave the request (x-request-id): in the logs and on the error page. */
    requestId: string;
  }
}
