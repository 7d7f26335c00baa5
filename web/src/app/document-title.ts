import { paths } from '@doctors-portal/contract';
import { useEffect } from 'react';
import { matchPath, useLocation } from 'react-router';

const PORTAL = 'Doctors Portal';

/**
 * Each route's document title, first the screen, then the portal: what a tab, the browser's
 * history and a screen reader announcing the page say. Typed by `paths`, so a new route cannot
 * go without one.
 */
export const SCREEN_TITLES: Record<keyof typeof paths, string> = {
  root: `${PORTAL} · Dental care, on your terms`,
  home: `${PORTAL} · Dental care, on your terms`,
  appointment: `Book an appointment · ${PORTAL}`,
  about: `About us · ${PORTAL}`,
  whoWeAre: `Who we are · ${PORTAL}`,
  login: `Login · ${PORTAL}`,
  signup: `Sign up · ${PORTAL}`,
  resetPassword: `Reset your password · ${PORTAL}`,
  dashboard: `My Appointments · ${PORTAL}`,
  review: `Add a review · ${PORTAL}`,
  history: `My History · ${PORTAL}`,
  account: `My account · ${PORTAL}`,
  payment: `Payment · ${PORTAL}`,
  schedule: `Schedule · ${PORTAL}`,
  clinic: `Clinic · ${PORTAL}`,
  treatments: `Treatments · ${PORTAL}`,
  users: `All Users · ${PORTAL}`,
  addDoctor: `Add a Doctor · ${PORTAL}`,
  manageDoctor: `Manage Doctors · ${PORTAL}`,
  audit: `Audit log · ${PORTAL}`,
  messages: `Messages · ${PORTAL}`,
  outgoingMail: `Outgoing mail · ${PORTAL}`,
  visit: `Your visit · ${PORTAL}`,
};

export const NOT_FOUND_TITLE = `Page not found · ${PORTAL}`;

/** Each route of `paths` as a pattern React Router matches: a parameter reads `:parameter`. */
const PATTERNS = Object.entries(paths).map(([name, route]) => ({
  name: name as keyof typeof paths,
  pattern: typeof route === 'string' ? route : route(':parameter'),
}));

/** The document title of a location's path. */
export function titleOf(pathname: string): string {
  const route = PATTERNS.find(({ pattern }) => matchPath(pattern, pathname));
  return route ? SCREEN_TITLES[route.name] : NOT_FOUND_TITLE;
}

/** Keeps the document's title to the screen shown. */
export function useDocumentTitle(): void {
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = titleOf(pathname);
  }, [pathname]);
}
