// The bundled icons (spec §3 "Icon names"), drawn inline so no icon font or request is needed.
import type { SVGProps } from 'react';

const PATHS = {
  cart: 'M6 7h12l-1 13H7L6 7Zm3 0V6a3 3 0 0 1 6 0v1',
  heart: 'M12 20s-7-4.4-7-10a4 4 0 0 1 7-2.6A4 4 0 0 1 19 10c0 5.6-7 10-7 10Z',
  user: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8Zm-7 8a7 7 0 0 1 14 0',
  logout: 'M15 4h3a1 1 0 0 1 1 1v14a1 1 0 0 1-1 1h-3M10 16l4-4-4-4M14 12H4',
  search: 'M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14Zm9 2-4.3-4.3',
  menu: 'M4 7h16M4 12h16M4 17h16',
  close: 'M6 6l12 12M18 6 6 18',
  orders: 'M5 8h14v11H5zM9 8V5h6v3M9 12h6',
  home: 'M4 11 12 4l8 7v9h-5v-6H9v6H4z',
  grid: 'M4 4h7v7H4zM13 4h7v7h-7zM4 13h7v7H4zM13 13h7v7h-7z',
  chat: 'M4 5h16v11H9l-5 4z',
  arrowUp: 'M12 19V5M6 11l6-6 6 6',
  chevronDown: 'm6 9 6 6 6-6',
  chevronRight: 'm9 6 6 6-6 6',
  filter: 'M4 6h16M7 12h10M10 18h4',
  chevronLeft: 'm15 18-6-6 6-6',
  check: 'm5 12 5 5 9-10',
  telegram: 'M20 5 3 11.5l6 2 2 6 3-4 5 4z',
  whatsApp: 'M5 19l1.3-3.8A7.5 7.5 0 1 1 9 18.4zM9.5 9c0 3 2.5 5.5 5.5 5.5',
  wallet: 'M4 7h15a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1h11v2M16 13h2',
  users: 'M9 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7Zm-6 9a6 6 0 0 1 12 0m1-9a3 3 0 1 0 0-6m2 15h3a5 5 0 0 0-4-5',
  profile: 'M4 5h16v14H4zM8 10a2 2 0 1 0 4 0 2 2 0 0 0-4 0m-1 6a3 3 0 0 1 6 0M15 9h3M15 13h3',
  pin: 'M12 21s-6-5.5-6-11a6 6 0 0 1 12 0c0 5.5-6 11-6 11Zm0-8.5a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5Z',
  copy: 'M8 8h11v12H8zM5 16V4h11',
  vk: 'M3 7h3.5c.5 3 2 5 3.5 5.5V7h3v3.5c1.5-.2 3-2 3.5-3.5H20c-.5 2.5-2.5 4.5-4 5 1.5.5 3.5 2.5 4 5h-3.5c-.5-1.5-2-3-3.5-3.2V17H12c-5 0-8.5-4-9-10z',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, size = 22, ...rest }: { name: IconName; size?: number } & Omit<SVGProps<SVGSVGElement>, 'name'>) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.6}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...rest}
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
