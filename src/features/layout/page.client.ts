// Every page's one module script (DefaultLayout): what the server-drawn page starts by itself — the
// first screen's islands (queued by the inline client:eager directive), the cookie notice's button, the
// footer's columns, then after the first paint the web fonts and the wishlist hearts. One entry, so the
// code they share (first-paint.ts) is not a file of its own fetched at the browser's default priority
// ahead of the first paint, and one request instead of five.
import { bootCookieNotice } from '~/components/ui/cookie-notice.client.ts';
import { bootFooter } from '~/features/layout/footer.client.ts';
import { bootHearts } from '~/features/wishlist/wishlist.hearts.ts';
import { bootFonts } from '~/lib/fonts.client.ts';
import { bootEagerIslands } from '~/lib/eager-islands.client.ts';

bootEagerIslands();
bootCookieNotice();
bootFooter();
bootFonts();
bootHearts();
