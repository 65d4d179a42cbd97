// Invoker commands (HTML; Chromium 135+, Firefox 144, Safari 26): a button opens or closes a dialog by id
// without script — how the modals answer a tap made before their island has hydrated (docs/decisions/021).
// React 19 passes the attributes through; its types do not list them yet.
import 'react';

declare module 'react' {
  // The same type parameter as React's declaration: merged interfaces must name theirs alike.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ButtonHTMLAttributes<T> {
    commandfor?: string | undefined;
    command?: 'show-modal' | 'close' | 'request-close' | 'show-popover' | 'hide-popover' | 'toggle-popover' | undefined;
  }
}
