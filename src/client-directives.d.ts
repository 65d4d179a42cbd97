// The shop's own client directive, for astro check and the editor (registered in astro.config.mjs).
import 'astro';

declare module 'astro' {
  interface AstroClientDirectives {
    /** Loads with the page and replays taps made before hydration (src/lib/eager-directive.ts). */
    'client:eager'?: boolean;
  }
}
