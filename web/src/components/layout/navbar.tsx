import { paths } from '@doctors-portal/contract';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, type Location, useLocation } from 'react-router';
import { useHydrated } from '../../lib/use-hydrated';
import { Icon } from '../icon';
import { BrandLink } from './brand-link';
import { DASHBOARD_MENU_SLOT_ID } from './dashboard-menu-slot';

export interface NavbarUser {
  displayName: string;
}

export interface NavbarProps {
  /** The signed-in user; when set, the bar shows Dashboard and a Logout button instead of Login. */
  user?: NavbarUser | null;
  /** Called by the Logout button. The caller asks for confirmation and signs out. */
  onLogout?: () => void;
}

type Current = 'page' | 'location' | undefined;

interface NavItem {
  label: string;
  to: string;
  current: (location: Location) => Current;
}

const onHomePage = (pathname: string) => pathname === paths.root || pathname === paths.home;

const startsWith = (pathname: string, base: string) =>
  pathname === base || pathname.startsWith(`${base}/`);

const pageItem = (label: string, to: string): NavItem => ({
  label,
  to,
  current: ({ pathname }) => (startsWith(pathname, to) ? 'page' : undefined),
});

const anchorItem = (label: string, hash: string): NavItem => ({
  label,
  to: `/${hash}`,
  current: ({ pathname, hash: current }) =>
    onHomePage(pathname) && current === hash ? 'location' : undefined,
});

/** The spec's links, in its order. */
const PUBLIC_ITEMS: NavItem[] = [
  {
    label: 'Home',
    to: paths.home,
    current: ({ pathname, hash }) => (onHomePage(pathname) && !hash ? 'page' : undefined),
  },
  anchorItem('Review', '#review'),
  anchorItem('Contact Us', '#who-we-are'),
  pageItem('Appointment', paths.appointment),
  pageItem('About', paths.about),
];

const DASHBOARD_ITEM = pageItem('Dashboard', paths.dashboard);
const LOGIN_ITEM = pageItem('Login', paths.login);

const linkClass =
  'relative block rounded-field px-3 py-2.5 text-[0.95rem] font-medium transition-colors hover:bg-mint hover:text-primary lg:py-2 ' +
  'aria-[current]:font-semibold aria-[current]:text-primary ' +
  'lg:after:absolute lg:after:inset-x-3 lg:after:-bottom-px lg:after:h-0.5 lg:after:rounded-full lg:after:bg-primary lg:after:opacity-0 lg:after:transition-opacity lg:aria-[current]:after:opacity-100';

function MenuIcon({ open }: { open: boolean }) {
  return (
    <Icon className="size-6">
      <path d={open ? 'M6 6l12 12M18 6L6 18' : 'M4 7h16M4 12h16M4 17h16'} />
    </Icon>
  );
}

/** The sticky bar at the top of every page. */
export function Navbar({ user, onLogout }: NavbarProps) {
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const navRef = useRef<HTMLElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const onDashboard = startsWith(location.pathname, paths.dashboard);
  // On a prerendered page the bar shows before the app runs, when the toggle could do nothing.
  const hydrated = useHydrated();

  // Every navigation closes the mobile menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: location.key marks a navigation.
  useEffect(() => {
    setMenuOpen(false);
  }, [location.key]);

  // Escape or a click outside the bar closes the open menu, but not while a dialog the menu
  // opened is up (Logout's confirmation): those are the dialog's, which gives the focus back to
  // the menu's button when it closes.
  useEffect(() => {
    if (!menuOpen) return;
    const dialogOpen = () => document.querySelector('dialog[open]') !== null;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !dialogOpen()) {
        setMenuOpen(false);
        toggleRef.current?.focus();
      }
    };
    const onPointer = (event: PointerEvent) => {
      if (!navRef.current?.contains(event.target as Node) && !dialogOpen()) setMenuOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [menuOpen]);

  const items = user ? [...PUBLIC_ITEMS, DASHBOARD_ITEM] : PUBLIC_ITEMS;

  return (
    <header className="sticky top-0 z-40 border-b border-base-300/80 bg-base-100/95 backdrop-blur supports-[backdrop-filter]:bg-base-100/85">
      <nav ref={navRef} aria-label="Main" className="container-page relative">
        <div className="flex h-16 items-center justify-between gap-3 lg:h-[4.5rem]">
          <BrandLink className="flex shrink-0 items-center gap-2.5 rounded-field py-1 font-display text-xl font-bold tracking-tight text-neutral" />

          <div className="flex items-center gap-1 lg:hidden">
            <button
              ref={toggleRef}
              type="button"
              className="btn btn-ghost btn-square"
              aria-label={menuOpen ? 'Close menu' : 'Open menu'}
              aria-expanded={menuOpen}
              aria-controls={menuId}
              disabled={!hydrated}
              onClick={() => setMenuOpen((open) => !open)}
            >
              <MenuIcon open={menuOpen} />
            </button>
          </div>

          <div
            id={menuId}
            className={`${menuOpen ? 'block' : 'hidden'} absolute inset-x-0 top-full -mx-px max-h-[calc(100dvh-4rem)] overflow-y-auto border-b border-base-300 bg-base-100 px-4 pb-5 pt-2 shadow-lift sm:px-6 lg:static lg:mx-0 lg:max-h-none lg:overflow-visible lg:flex lg:items-center lg:gap-4 lg:border-0 lg:bg-transparent lg:p-0 lg:shadow-none`}
          >
            <ul className="flex flex-col gap-0.5 lg:flex-row lg:items-center lg:gap-1">
              {items.map((item) => (
                <li key={item.to}>
                  <Link to={item.to} className={linkClass} aria-current={item.current(location)}>
                    {item.label}
                  </Link>
                </li>
              ))}
            </ul>
            {/* The dashboard's own links, on small screens (features/dashboard's sidebar). */}
            {onDashboard ? <div id={DASHBOARD_MENU_SLOT_ID} className="lg:hidden" /> : null}
            <div className="mt-3 border-t border-base-300 pt-4 lg:mt-0 lg:border-0 lg:pt-0">
              {user ? (
                <div className="flex items-center gap-3">
                  <span
                    className="truncate text-sm text-muted lg:max-w-40"
                    title={user.displayName}
                  >
                    {user.displayName}
                  </span>
                  <button
                    type="button"
                    className="btn btn-outline btn-primary ml-auto lg:ml-0"
                    onClick={onLogout}
                  >
                    Logout
                  </button>
                </div>
              ) : (
                <Link
                  to={LOGIN_ITEM.to}
                  className="btn btn-primary w-full px-6 lg:w-auto"
                  aria-current={LOGIN_ITEM.current(location)}
                >
                  {LOGIN_ITEM.label}
                </Link>
              )}
            </div>
          </div>
        </div>
      </nav>
    </header>
  );
}
