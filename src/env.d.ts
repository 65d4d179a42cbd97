/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    locale: import('./lib/i18n/index.ts').Locale;
  }
}
